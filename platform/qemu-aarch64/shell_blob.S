/* The shell (build/qemu-aarch64/apps/shell.efi), carried in the firmware image: what the
 * boot manager starts when nothing else boots; and the setup screen
 * (build/qemu-aarch64/apps/setup.efi). EMBER_SHELL and EMBER_SETUP, given by the Makefile,
 * are their paths; both are stored unpacked, as the rest of the AArch64 image is. */
	.section .rodata.shell, "a"
	.balign	16
	.globl	ember_shell
ember_shell:
	.incbin	EMBER_SHELL
	.globl	ember_shell_end
ember_shell_end:

	.balign	16
	.globl	ember_setup
ember_setup:
	.incbin	EMBER_SETUP
	.globl	ember_setup_end
ember_setup_end:

	.section .note.GNU-stack,"",@progbits
