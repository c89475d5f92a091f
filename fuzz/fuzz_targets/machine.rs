//! libFuzzer entry of the `machine` target; the harness is `statecore_fuzz::targets::machine::run`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    statecore_fuzz::known::fuzz("machine", statecore_fuzz::targets::machine::run, data)
});
