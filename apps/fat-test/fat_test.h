/* fat-test: exercises a FAT volume through EFI_FILE_PROTOCOL only, on the volume it was
 * loaded from (tests/integration/test_fat.py runs it from images made by mkfs.vfat and
 * checks the results with mtools and fsck.fat).
 *   fat-test write   builds \FatTest: new files, long and Unicode names, nested
 *                    directories, appends, gaps, resizes, deletes, renames and moves,
 *                    attributes, the label; checking each step's status and contents
 *   fat-test dump    prints every directory ("D path") and file ("F path size crc32")
 *                    below the root, then "label L" and "free BYTES" */
#ifndef FAT_TEST_H
#define FAT_TEST_H

#include "../lib/app.h"
#include "../lib/check.h"
#include <efi/protocol/simple_file_system.h>

#define RO_MODE EFI_FILE_MODE_READ
#define RW_MODE (EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE)
#define CREATE_MODE (EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE)

extern EFI_GUID ft_file_info_guid, ft_fs_info_guid, ft_label_guid;

/* ---- Helpers (util.c) ---- */

/* Open() checked for EFI_SUCCESS: the handle or NULL. */
EFI_FILE_PROTOCOL *ft_open(EFI_FILE_PROTOCOL *from, const CHAR16 *name, UINT64 mode,
			   UINT64 attributes);
/* Writes size bytes at the current position; true when all were written. */
bool ft_write(EFI_FILE_PROTOCOL *f, const void *data, UINTN size);
/* Creates (or opens) path and writes text at its end; true on success. */
bool ft_append(EFI_FILE_PROTOCOL *from, const CHAR16 *path, const void *data, UINTN size);
/* Reads the whole file into new pool memory; NULL on failure. */
void *ft_read_all(EFI_FILE_PROTOCOL *from, const CHAR16 *path, UINTN *size);
/* True when path holds exactly size bytes equal to data. */
bool ft_holds(EFI_FILE_PROTOCOL *from, const CHAR16 *path, const void *data, UINTN size);
/* The handle's EFI_FILE_INFO in new pool memory, or NULL. */
EFI_FILE_INFO *ft_info(EFI_FILE_PROTOCOL *f);
/* SetInfo(EFI_FILE_INFO) with info's fields and a new name. */
EFI_STATUS ft_set_info(EFI_FILE_PROTOCOL *f, const EFI_FILE_INFO *info, const CHAR16 *name);
/* Fills buf with a pattern that depends on seed. */
void ft_pattern(UINT8 *buf, UINTN size, UINT32 seed);

/* ---- Commands ---- */

void ft_write_scenario(EFI_FILE_PROTOCOL *root);
void ft_dump(EFI_FILE_PROTOCOL *root);

#endif
