//! libFuzzer entry of the `jsonl` target; the harness is `statecore_fuzz::targets::jsonl::run`.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    statecore_fuzz::known::fuzz("jsonl", statecore_fuzz::targets::jsonl::run, data)
});
