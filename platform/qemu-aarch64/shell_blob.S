/* The shell (build/qemu-aarch64/apps/shell.efi), carried in the firmware image: what the
 * boot manager starts when nothing else boots. EMBER_SHELL, given by the Makefile, is its
 * path; it is stored unpacked, as the rest of the AArch64 image is. */
	.section .rodata.shell, "a"
	.balign	16
	.globl	ember_shell
ember_shell:
	.incbin	EMBER_SHELL
	.globl	ember_shell_end
ember_shell_end:

	.section .note.GNU-stack,"",@progbits
