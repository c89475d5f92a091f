//! libFuzzer entry of the `merge` target; the harness is `statecore_fuzz::targets::merge::run`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    statecore_fuzz::known::fuzz("merge", statecore_fuzz::targets::merge::run, data)
});
