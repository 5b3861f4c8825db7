/* The shell (build/apps/shell.efi), carried in the firmware image: what the boot manager
 * starts when nothing else boots; and after it the setup screen (build/apps/setup.efi).
 * EMBER_SHELL_PACKED and EMBER_SETUP_PACKED, given by the Makefile, are their paths
 * packed by scripts/deflate-blob (its size, then raw DEFLATE of it after the call filter).
 * It is kept out of the core's image: scripts/mkfd takes this section from the core's ELF
 * file and puts it in flash, as it is, at the end of the packed core's region (right below
 * the reset blob), where the reset stage's check and the PCR 0 measurement cover it but
 * the reset stage's unpacking does not pass over it. boot.c unpacks it from there when
 * the shell runs. ember_shell_packed_size is the whole section's (mkfd checks it);
 * ember_setup_packed_size the setup screen's, at the section's end. */
	.section .rodata.shell, "a"
	.balign	8
	.globl	ember_shell_packed_size
ember_shell_packed_size:
	.quad	shell_end - shell_start
	.globl	ember_setup_packed_size
ember_setup_packed_size:
	.quad	shell_end - setup_start

	/* Not allocated: in the ELF file, not in the core's image. */
	.section .ember_shell, "", @progbits
shell_start:
	.incbin	EMBER_SHELL_PACKED
setup_start:
	.incbin	EMBER_SETUP_PACKED
shell_end:

	.section .note.GNU-stack,"",@progbits
