//! What std would otherwise provide on wasm32: a panic handler and an
//! allocator. The crate is `no_std` so that std's panic machinery, and the
//! `core::fmt` code it pulls in to print messages nobody reads, stay out of
//! the `.wasm`. Panics are bugs here (clippy denies the usual sources), so
//! the handler just traps.

/// Traps. No message: formatting one would link `core::fmt` back in.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

/// A small free-list allocator that coalesces neighbouring free blocks
/// (<https://github.com/Craig-Macomber/lol_alloc>): about 1 KB of wasm
/// against about 5 KB for dlmalloc, which std uses. The client's
/// allocations are few and short-lived, so its linear-time free list is no
/// cost worth measuring.
// SAFETY: wasm32 without the atomics feature runs this module on one thread.
#[global_allocator]
static ALLOCATOR: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };
