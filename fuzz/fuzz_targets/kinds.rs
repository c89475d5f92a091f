//! libFuzzer entry of the `kinds` target; the harness is `statecore_fuzz::targets::kinds::run`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    statecore_fuzz::known::fuzz("kinds", statecore_fuzz::targets::kinds::run, data)
});
