/* QEMU's table-loader script (fw_cfg "etc/table-loader"), interpreted without touching
 * hardware: the platform supplies how a blob is allocated and filled and how a pointer is
 * written back, so the interpreter runs unchanged under unit tests and fuzzers. The script
 * and the blobs are outside data: every command is bound-checked, and the first invalid
 * one stops the run. Format: 128-byte little-endian entries, a u32 command then its body;
 * file names are 56 bytes, NUL-terminated (QEMU hw/acpi/bios-linker-loader.c). */
#ifndef EMBER_QEMU_LOADER_H
#define EMBER_QEMU_LOADER_H

#include <stdbool.h>
#include <efi/status.h>

#define QEMU_LOADER_FNAME_SIZE 56
#define QEMU_LOADER_ENTRY_SIZE 128
#define QEMU_LOADER_MAX_BLOBS 32

enum qemu_loader_command {
	QEMU_LOADER_ALLOCATE = 1,     /* {file, u32 align, u8 zone} */
	QEMU_LOADER_ADD_POINTER = 2,  /* {dest file, src file, u32 offset, u8 size} */
	QEMU_LOADER_ADD_CHECKSUM = 3, /* {file, u32 result offset, u32 start, u32 length} */
	QEMU_LOADER_WRITE_POINTER =
	    4, /* {dest file, src file, u32 dst off, u32 src off, u8 size} */
};

#define QEMU_LOADER_ZONE_HIGH 1
#define QEMU_LOADER_ZONE_FSEG 2

/* A fw_cfg file copied into memory. */
struct qemu_loader_blob {
	char name[QEMU_LOADER_FNAME_SIZE];
	UINT8 *data;	/* where the firmware reads and patches it */
	UINT64 address; /* its guest-physical address, what pointers to it hold */
	UINT64 size;
};

struct qemu_loader_ops {
	/* Allocates memory for fw_cfg file name (aligned to align, a power of two), fills it
	 * with the file and describes it in blob (name is already set). */
	EFI_STATUS (*allocate)(void *ctx, const char *name, UINT32 align, UINT8 zone,
			       struct qemu_loader_blob *blob);
	/* Writes the size low bytes of value, little-endian, at offset in the fw_cfg file
	 * name (a file QEMU lets the guest write, not a blob). */
	EFI_STATUS (*write_pointer)(void *ctx, const char *name, UINT32 offset, UINT8 size,
				    UINT64 value);
	void *ctx;
};

struct qemu_loader {
	struct qemu_loader_blob blobs[QEMU_LOADER_MAX_BLOBS];
	UINTN blob_count;
	const char *error; /* why the run stopped, for the log */
};

/* Runs every command of script in order. On failure the blobs allocated so far stay in
 * loader->blobs for the caller to release. */
EFI_STATUS qemu_loader_run(struct qemu_loader *loader, const struct qemu_loader_ops *ops,
			   const void *script, UINTN size);

/* The blob with this name, or NULL. */
struct qemu_loader_blob *qemu_loader_blob(struct qemu_loader *loader, const char *name);

/* Where [address, address + size) can be read, if one blob holds all of it; else NULL. */
UINT8 *qemu_loader_at(const struct qemu_loader *loader, UINT64 address, UINT64 size);

#endif
