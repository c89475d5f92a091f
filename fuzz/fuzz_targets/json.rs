//! libFuzzer entry of the `json` target; the harness is `statecore_fuzz::targets::json::run`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    statecore_fuzz::known::fuzz("json", statecore_fuzz::targets::json::run, data)
});
