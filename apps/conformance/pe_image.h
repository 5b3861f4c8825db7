/* Tiny PE32+ images built in memory for the image-services tests. The image's only
 * code jumps to a target (x86-64: `movabs rax, target; jmp rax`; AArch64: `ldr x16, target;
 * br x16` with the target after it), so its entry point runs a function of this
 * application with the child's own ImageHandle and SystemTable. Its .data section holds
 * a pointer to itself with a DIR64 base relocation, to prove relocation. */
#ifndef CONFORMANCE_PE_IMAGE_H
#define CONFORMANCE_PE_IMAGE_H

#include "conformance.h"

#define PE_FILE_SIZE 0x800
#define PE_IMAGE_SIZE 0x4000
#define PE_TEXT_RVA 0x1000
#define PE_DATA_RVA 0x2000
/* Linked far above any RAM, so loading must relocate. */
#define PE_PREFERRED_BASE 0x7fff00000000ULL
#define PE_DATA_MAGIC 0x454c4946444c4843ULL /* "CHLDFILE" */

#define PE_SUBSYSTEM_APPLICATION 10
#define PE_SUBSYSTEM_BS_DRIVER 11

/* Deliberate defects for negative tests. */
enum pe_defect {
	PE_OK,
	PE_BAD_MZ,
	PE_BAD_SIGNATURE,
	PE_MACHINE_I386,
	PE_MACHINE_FOREIGN, /* the other architecture Ember runs on: AArch64 on x86-64 ... */
	PE_SUBSYSTEM_CONSOLE,
	PE_IMAGE_SIZE_TOO_SMALL,
	PE_TOO_MANY_SECTIONS,
	PE_SECTION_BEYOND_FILE,
	PE_BAD_OPTIONAL_MAGIC,
};

/* Whether code starts with the jump pe_build writes (the image was loaded whole). */
bool pe_is_trampoline(const UINT8 *code);

/* Writes a PE_FILE_SIZE-byte image to buf whose entry point jumps to `entry`. */
void pe_build(UINT8 *buf, EFI_IMAGE_ENTRY_POINT entry, UINT16 subsystem, enum pe_defect defect);

#endif
