/* PCI option ROM images (PCI Firmware 3.0, 5.1; UEFI 2.10, 14.4.2): the walk over the
 * images of a ROM copied to memory. Pure: no allocation, bounded by the ROM's size. */
#ifndef EMBER_OPTION_ROM_H
#define EMBER_OPTION_ROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OPTION_ROM_CODE_TYPE_EFI 3
#define OPTION_ROM_MAX_IMAGES 64

/* One image of a ROM, as its headers describe it. */
struct option_rom_image {
	size_t offset;	    /* of the image (its 0x55AA) in the ROM */
	size_t length;	    /* image length from the PCIR structure, bytes */
	uint16_t vendor_id; /* from the PCIR structure (QEMU patches the first image's only) */
	uint16_t device_id;
	uint8_t code_type;
	bool last; /* the last-image indicator */
	/* Code type 3 only, when its EFI header is sound (efi set): */
	bool efi;
	uint16_t subsystem, machine, compression;
	size_t efi_offset, efi_length; /* the PE image (or compressed stream) in the ROM */
};

enum option_rom_result { OPTION_ROM_END, OPTION_ROM_IMAGE, OPTION_ROM_BAD };

/* Reads the image at *pos (0 for the first) of rom[0..size). OPTION_ROM_IMAGE: *image is
 * filled and *pos moves past it (to size after the last image, so the next call gives
 * OPTION_ROM_END). OPTION_ROM_BAD: a header is missing, truncated or inconsistent; the
 * walk must stop. Positions only grow, so a walk cannot loop or revisit bytes. */
enum option_rom_result option_rom_next(const uint8_t *rom, size_t size, size_t *pos,
				       struct option_rom_image *image);

#endif
