//! The two semihosting calls the firmware needs beyond printing: an exit with any exit code
//! (`SYS_EXIT_EXTENDED`, which QEMU turns into its own exit status) and the command line
//! (`SYS_GET_CMDLINE`, set by `-semihosting-config ...,arg=WORD`).

/// ARM semihosting `SYS_EXIT_EXTENDED`.
const SYS_EXIT_EXTENDED: usize = 0x20;
/// ARM semihosting `SYS_GET_CMDLINE`.
const SYS_GET_CMDLINE: usize = 0x15;
/// `ADP_Stopped_ApplicationExit`: a normal exit, the subcode is the exit status.
const ADP_STOPPED_APPLICATION_EXIT: usize = 0x20026;

/// Ends the emulation; QEMU exits with `code`.
pub fn exit(code: u32) -> ! {
    let block = [ADP_STOPPED_APPLICATION_EXIT, code as usize];
    // SAFETY: the block is the two words SYS_EXIT_EXTENDED reads.
    unsafe {
        cortex_m_semihosting::syscall(SYS_EXIT_EXTENDED, &block);
    }
    // Only reached without a debugger/emulator that implements semihosting.
    loop {
        cortex_m::asm::wfi();
    }
}

/// The semihosting command line (QEMU's `arg=` words joined by spaces) in `buf`, or `""`.
pub fn cmdline(buf: &mut [u8]) -> &str {
    let mut block = [buf.as_mut_ptr() as usize, buf.len()];
    // SAFETY: the host writes at most block[1] bytes to block[0] and the length to block[1].
    // The block goes by raw pointer: the host writes through it.
    let r = unsafe { cortex_m_semihosting::syscall1(SYS_GET_CMDLINE, block.as_mut_ptr() as usize) };
    // SAFETY: block is a live local; the read is volatile because the host wrote it.
    let len = unsafe { core::ptr::read_volatile(&block[1]) };
    if r != 0 || len > buf.len() {
        return "";
    }
    let s = &buf[..len];
    let s = match s.iter().position(|&b| b == 0) {
        Some(n) => &s[..n],
        None => s,
    };
    core::str::from_utf8(s).unwrap_or("")
}
