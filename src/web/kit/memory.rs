//! The server's memory under a storm of logins: each PIN check (Argon2) takes a 19 MiB block. glibc's allocator
//! would keep such blocks in the arena of whichever thread freed them (each store thread its own), so the server's
//! resident memory would grow to a block per thread and stay there; [`return_large_blocks`] has every block of
//! a MiB or more mapped on its own and given back to the system when freed. With at most two PIN checks at once
//! (see [`super::state::HASHING`]) the server's peak stays under 150 MB during a storm.

/// Blocks of this size or more are mapped on their own and given back when freed.
const LARGE: usize = 1024 * 1024;

/// Sets the allocator so (glibc only; other systems' allocators give such blocks back on their own).
#[allow(unsafe_code)]
pub fn return_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's tuning, before the server's threads start.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, LARGE as libc::c_int);
    }
}
