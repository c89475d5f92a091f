//! libFuzzer entry of the `index_md` target; the harness is `statecore_fuzz::targets::index_md::run`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    statecore_fuzz::known::fuzz("index_md", statecore_fuzz::targets::index_md::run, data)
});
