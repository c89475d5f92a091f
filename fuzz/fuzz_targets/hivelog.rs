//! libFuzzer entry of the `hivelog` target; the harness is `statecore_fuzz::targets::hivelog::run`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    statecore_fuzz::known::fuzz("hivelog", statecore_fuzz::targets::hivelog::run, data)
});
