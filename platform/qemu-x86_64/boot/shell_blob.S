/* The shell (build/apps/shell.efi), carried in the firmware image: what the boot manager
 * starts when nothing else boots. EMBER_SHELL_EFI is its path, given by the Makefile. */
	.section .rodata.shell, "a"
	.balign	16
	.globl	ember_shell_efi
ember_shell_efi:
	.incbin	EMBER_SHELL_EFI
	.globl	ember_shell_efi_end
ember_shell_efi_end:

	.section .note.GNU-stack,"",@progbits
