/* fs-test: a conformance test of EFI_SIMPLE_FILE_SYSTEM_PROTOCOL and EFI_FILE_PROTOCOL
 * (UEFI 2.10, 13.4, 13.5) on the volume the application was loaded from. It uses only the
 * UEFI API. On a writable volume it builds \FsTest and leaves files whose host contents
 * tests/integration/test_esp.py checks; on a read-only volume it checks the refusals. */
#ifndef FS_TEST_H
#define FS_TEST_H

#include <efi/efi.h>
#include <efi/protocol/simple_file_system.h>
#include <ember/lib/format.h>
#include <ember/lib/str.h>

extern EFI_SYSTEM_TABLE *fst_st;
extern EFI_BOOT_SERVICES *fst_bs;
extern EFI_GUID fst_file_info_guid, fst_fs_info_guid, fst_label_guid;

/* ---- Reporting (support.c) ---- */

void fst_print(const char *fmt, ...);
bool fst_check(bool ok, const char *expr, const char *file, int line);
bool fst_check_status(EFI_STATUS got, EFI_STATUS want, const char *expr, const char *file,
		      int line);
bool fst_check_u64(UINT64 got, UINT64 want, const char *expr, const char *file, int line);
/* Prints "fs-test: N passed, N failed"; true when nothing failed. */
bool fst_summary(void);

#define CHECK(c) fst_check(!!(c), #c, __FILE__, __LINE__)
#define CHECK_STATUS(e, s) fst_check_status((e), (s), #e, __FILE__, __LINE__)
#define CHECK_EQ(a, b) fst_check_u64((UINT64)(a), (UINT64)(b), #a " == " #b, __FILE__, __LINE__)

/* ---- Helpers (support.c) ---- */

void *fst_alloc(UINTN size); /* zero-filled pool memory, NULL on failure */
void fst_free(void *p);
/* Open() that checks the status: the handle, or NULL (counted as a failure). */
EFI_FILE_PROTOCOL *fst_open(EFI_FILE_PROTOCOL *from, const CHAR16 *name, UINT64 mode,
			    UINT64 attributes, const char *file, int line);
#define OPEN(from, name, mode, attr) fst_open(from, name, mode, attr, __FILE__, __LINE__)
#define READ_ONLY_MODE EFI_FILE_MODE_READ
#define RW_MODE (EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE)
#define CREATE_MODE (EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE)
/* Writes all of data; the status of Write(). */
EFI_STATUS fst_write(EFI_FILE_PROTOCOL *f, const void *data, UINTN size);
/* Creates (or truncates) path with the given contents; true on success. */
bool fst_make_file(EFI_FILE_PROTOCOL *from, const CHAR16 *path, const char *text);
/* True when the file at path holds exactly size bytes equal to data. */
bool fst_file_holds(EFI_FILE_PROTOCOL *from, const CHAR16 *path, const void *data, UINTN size);
/* The file's EFI_FILE_INFO in new pool memory, or NULL. */
EFI_FILE_INFO *fst_file_info(EFI_FILE_PROTOCOL *f);
/* True when the name exists (Open for read succeeds). */
bool fst_exists(EFI_FILE_PROTOCOL *from, const CHAR16 *path);
/* SetInfo(EFI_FILE_INFO) with info's fields and a new name. */
EFI_STATUS fst_set_info(EFI_FILE_PROTOCOL *f, const EFI_FILE_INFO *info, const CHAR16 *name);

/* ---- Suites, one file each ---- */

void test_open(EFI_FILE_PROTOCOL *root);
void test_read_write(EFI_FILE_PROTOCOL *root);
void test_delete(EFI_FILE_PROTOCOL *root);
void test_directories(EFI_FILE_PROTOCOL *root);
void test_get_info(EFI_FILE_PROTOCOL *root);
void test_set_info(EFI_FILE_PROTOCOL *root);
void test_async(EFI_FILE_PROTOCOL *root);
void test_foreign_handles(EFI_FILE_PROTOCOL *root);
void test_read_only_volume(EFI_FILE_PROTOCOL *root);

#endif
