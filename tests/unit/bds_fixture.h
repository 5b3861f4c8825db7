/* A world for the boot manager's unit tests (bds/): a fresh variable store, disks with FAT
 * file systems holding boot programs, and the programs themselves. A boot program is a
 * real PE image, loaded and started by the core; its entry jumps into the test, which
 * records which program ran (by the number built into it), with which LoadOptions and
 * BootCurrent, and returns the status the test chose for it.
 *
 * Tests that use it run in their own process (RUN_ISOLATED): the world is not torn down. */
#ifndef TEST_BDS_FIXTURE_H
#define TEST_BDS_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <efi/protocol/device_path.h>
#include <ember/lib/load_option.h>

#define BDS_MAX_RUNS 16

/* What one start of a boot program saw. */
struct bds_run_record {
	unsigned id;		 /* the number the program was built with */
	UINT16 boot_current;	 /* BootCurrent then (0xffff: none) */
	UINTN load_options_size; /* the LoadedImage's LoadOptions */
	UINT8 load_options[64];
};

struct bds_world {
	struct bds_run_record runs[BDS_MAX_RUNS];
	unsigned run_count;
	EFI_STATUS status_of[32]; /* what program id returns (default EFI_NOT_FOUND) */
};
extern struct bds_world bds_world;

/* Starts variables on an empty flash, installs the built-in drivers. */
void bds_world_start(void);

/* A boot program (PE32+ file bytes, malloc'd) that reports id when started. */
UINT8 *bds_program(unsigned id, size_t *size);

/* A disk holding a FAT file system with the given files (FAT paths such as
 * "/EFI/BOOT/BOOTX64.EFI"), each a boot program of the given id; connected, so its file
 * system is there. Returns the disk's handle; *path (optional) gets its device path. */
struct bds_file {
	const char *path;
	unsigned id;
};
EFI_HANDLE bds_disk_add(const struct bds_file *files, size_t count,
			EFI_DEVICE_PATH_PROTOCOL **path);
/* The FAT file system image (1 MiB, malloc'd) bds_disk_add puts on its disk. */
UINT8 *bds_fat_image(const struct bds_file *files, size_t count, size_t *size);
/* The same files on a FAT file system in the one partition of a GPT disk. *path gets the
 * partition's device path (ending in its HD() node). */
EFI_HANDLE bds_gpt_disk_add(const struct bds_file *files, size_t count,
			    EFI_DEVICE_PATH_PROTOCOL **path);
/* Takes a disk away again (disconnects and removes it). */
void bds_disk_remove(EFI_HANDLE disk);

/* The file system handle on a disk (the disk itself: it has no partitions). */
EFI_DEVICE_PATH_PROTOCOL *bds_file_path(EFI_DEVICE_PATH_PROTOCOL *disk, const char *file);

/* Writes Boot####-style option kind####: attributes, description, path, optional data. */
void bds_option_put(const CHAR16 *kind, UINT16 number, UINT32 attributes, const CHAR16 *description,
		    const EFI_DEVICE_PATH_PROTOCOL *path, const void *optional,
		    UINTN optional_size);
/* Writes an order variable (BootOrder ...) of count numbers. */
void bds_order_put(const CHAR16 *name, const UINT16 *order, UINTN count);
/* Reads an order variable back: the count, the numbers into order (up to max). */
UINTN bds_order_get(const CHAR16 *name, UINT16 *order, UINTN max);

/* Program and erase steps of the variable flash so far (to see that nothing was written). */
UINT64 bds_flash_steps(void);

/* The ids of the programs that ran, in order, as a string such as "2,1,9". */
const char *bds_runs_text(void);

#endif
