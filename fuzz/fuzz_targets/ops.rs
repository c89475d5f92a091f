//! libFuzzer entry of the `ops` target; the harness is `statecore_fuzz::targets::ops::run`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    statecore_fuzz::known::fuzz("ops", statecore_fuzz::targets::ops::run, data)
});
