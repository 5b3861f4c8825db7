/* Writing firmware volumes on the host (tools/lib/fv_image.c): an empty volume, FFS files
 * made from PE images, and adding and removing files in a volume in place. Every file is
 * written with its checksums (FFS_ATTRIB_CHECKSUM), in the volume's erase polarity. */
#ifndef EMBER_TOOLS_FV_IMAGE_H
#define EMBER_TOOLS_FV_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <efi/types.h>

#define FV_IMAGE_BLOCK_SIZE 4096

/* Formats buf[0..size) (a multiple of FV_IMAGE_BLOCK_SIZE) as an empty FFS2 volume named
 * name: erase polarity 1, memory-mapped, its extended header in a pad file. */
void fv_image_format(uint8_t *buf, size_t size, const EFI_GUID *name);

/* What goes into a file. */
struct fv_image_file {
	EFI_GUID name;
	uint8_t type; /* EFI_FV_FILETYPE_DRIVER, _APPLICATION ... */
	const uint8_t *pe;
	size_t pe_size;
	const char *ui; /* the UI section's name (ASCII), NULL for none */
	bool compress;	/* the PE32 section inside a UEFI-compressed section */
	const uint8_t *depex;
	size_t depex_size; /* 0: no DXE_DEPEX section */
	uint16_t build;	   /* the VERSION section's build number */
};

/* The FFS file (header and sections, checksums for a volume of erase value erased) in a
 * new buffer (free() it), its size in *size; NULL when memory runs out or it is too big. */
uint8_t *fv_image_make_file(const struct fv_image_file *spec, uint8_t erased, size_t *size);

/* Appends file[0..file_size) after the volume's last file. NULL when done, else why not
 * (damaged volume, no room, a file of the same name). */
const char *fv_image_append(uint8_t *vol, size_t vol_size, const uint8_t *file, size_t file_size);

/* Removes the file whose header is at offset (file_size bytes), moving the files after it
 * down and erasing the space freed. NULL when done, else why not. */
const char *fv_image_remove(uint8_t *vol, size_t vol_size, size_t offset, size_t file_size);

/* The UI section's name of a file (ASCII, '?' for others) in out; false when none. */
bool fv_image_file_ui(const uint8_t *data, size_t size, char *out, size_t out_size);

#endif
