/* QEMU's -kernel/-initrd/-append through fw_cfg (kernel.c), shared by both QEMU platforms. */
#ifndef EMBER_QEMU_KERNEL_H
#define EMBER_QEMU_KERNEL_H

/* From the platform: prints on the serial console whatever the log level (why the kernel
 * did not load). */
void panic_printf(const char *fmt, ...);

/* Boots the kernel QEMU was given with -kernel (the initrd through LoadFile2, -append as its
 * LoadOptions) and returns when it does; at once when there is none. The boot manager's
 * direct_boot. */
void kernel_boot(void);

#endif
