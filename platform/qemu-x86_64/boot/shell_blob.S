/* The shell (build/apps/shell.efi), carried in the firmware image: what the boot manager
 * starts when nothing else boots. EMBER_SHELL_PACKED, given by the Makefile, is its path
 * packed by scripts/deflate-blob (its size, then raw DEFLATE of it after the call filter):
 * boot.c unpacks it when the shell runs, so that the reset stage does not unpack it with
 * the core at every boot. */
	.section .rodata.shell, "a"
	.balign	16
	.globl	ember_shell_packed
ember_shell_packed:
	.incbin	EMBER_SHELL_PACKED
	.globl	ember_shell_packed_end
ember_shell_packed_end:

	.section .note.GNU-stack,"",@progbits
