/* Ember's boot logo: a 24-bit BMP drawn at build time (scripts/mklogo), shown centred on the
 * screen during boot; a platform with ACPI then describes it to the OS in a BGRT. */
#ifndef EMBER_BOOT_LOGO_H
#define EMBER_BOOT_LOGO_H

#include <efi/types.h>

extern const UINT8 boot_logo_bmp[];
extern const UINT32 boot_logo_bmp_size;

/* The variable that turns the logo off, for machines used over serial only: "BootLogo" of
 * this GUID, one byte, 0 (absent or anything else: the logo is shown). */
#define EMBER_BOOT_LOGO_VARIABLE u"BootLogo"
#define EMBER_BOOT_LOGO_GUID                                                                       \
	EFI_GUID_INIT(0xcd8e3f79, 0xa69d, 0x4954, 0xb8, 0xa2, 0xe3, 0x0b, 0x9e, 0x7a, 0x2c, 0xcd)

/* Where the logo was drawn: its upper-left corner on the screen. */
struct boot_logo_place {
	UINT32 x, y;
};

/* Draws the logo centred on the first Graphics Output device, whose screen is black.
 * EFI_NOT_STARTED when the BootLogo variable turns it off, EFI_NOT_FOUND when there is no GOP,
 * EFI_BAD_BUFFER_SIZE when the screen is smaller than the logo. */
EFI_STATUS boot_logo_draw(struct boot_logo_place *place);

/* Who describes the logo to the OS (the BGRT) is told through fn when it is no longer the
 * only thing on the screen: ACPI wants the table's "displayed" bit cleared then. */
void boot_logo_when_covered(void (*fn)(void));

/* Says that something else now covers the screen (the boot menu): calls fn once. */
void boot_logo_covered(void);

#endif
