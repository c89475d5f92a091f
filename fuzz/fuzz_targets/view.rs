//! libFuzzer entry of the `view` target; the harness is `statecore_fuzz::targets::view::run`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    statecore_fuzz::known::fuzz("view", statecore_fuzz::targets::view::run, data)
});
