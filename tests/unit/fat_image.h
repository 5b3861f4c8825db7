/* Test support for the FAT driver: disk images in memory (made by mkfs.vfat or by hand),
 * a memory disk for the FAT engine with fault injection, and running host tools
 * (mtools, fsck.fat) on an image. */
#ifndef TEST_FAT_IMAGE_H
#define TEST_FAT_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include "../../drivers/fat/fat_efi.h"

struct fat_mem_disk {
	struct fat_disk disk;
	UINT8 *data;
	size_t size;
	UINT64 reads, writes, read_bytes;
	/* While set, returned by every access (reads too) once `fail_after` writes were
	 * made: a device that breaks at its Nth write. EFI_NO_MEDIA stands for removal.
	 * With fail_once, only that one write fails. */
	EFI_STATUS fail;
	UINT64 fail_after;
	bool fail_once;
	UINT64 faults; /* accesses that got `fail` */
	bool present;  /* the medium is in */
	UINT32 media_id, seen_id;
};

/* An image made by `mkfs.vfat -C FILE size_kib ARGS` (e.g. "-F 12 -n LABEL"); malloc'd.
 * Exits the test program when mkfs.vfat fails. */
UINT8 *fat_image_mkfs(const char *args, UINT32 size_kib, size_t *size);

/* Writes the image to a temporary file, runs the shell command (each "%s" in it is the
 * file's path, each "%t" fat_image_scratch()), reads the file back into the image, and
 * returns the exit status. Output goes to out (NUL-terminated, may be NULL). */
int fat_image_run(UINT8 *image, size_t size, const char *command, char *out, size_t out_size);

/* A scratch file name of this test process (other processes may run FAT tests at the
 * same time), for the source files of mcopy. */
const char *fat_image_scratch(void);

/* fsck.fat -n on the image: true when it exits 0 and reports nothing; its output is
 * printed otherwise. */
bool fat_image_fsck_clean(UINT8 *image, size_t size);

/* fsck.fat -n's report on the image (at most size bytes, NUL-terminated); its exit
 * status is returned. */
int fat_image_fsck(UINT8 *image, size_t size, char *out, size_t out_size);

/* The geometry of an image made by fat_image_mkfs (exits the test program when its boot
 * sector does not parse). */
struct fat_geometry fat_image_geometry(const UINT8 *image, size_t size);
/* Where cluster's data lies in the image. */
UINT8 *fat_image_cluster(UINT8 *image, size_t size, UINT32 cluster);
/* The 8.3 entry named name83 (11 bytes as on disk, e.g. "SUB        ") in the directory
 * whose entry is dir (NULL: the root); NULL when absent. */
UINT8 *fat_image_entry(UINT8 *image, size_t size, const UINT8 *dir, const char *name83);
/* The value of cluster's entry in the first FAT. */
UINT32 fat_image_get_fat(const UINT8 *image, size_t size, UINT32 cluster);
/* Sets the value of cluster's entry in every FAT of the image. */
void fat_image_set_fat(UINT8 *image, size_t size, UINT32 cluster, UINT32 value);

/* A memory disk over image (not copied). */
void fat_mem_disk_init(struct fat_mem_disk *md, UINT8 *image, size_t size);

/* A mounted file system instance over a memory image, and its open root. */
struct test_fs {
	struct fat_mem_disk md;
	struct fat_sfs *sfs;
	EFI_FILE_PROTOCOL *root;
};

/* Mounts and opens the root; false (with the status) when either fails. */
EFI_STATUS test_fs_open(struct test_fs *fs, UINT8 *image, size_t size);
/* Closes the root and ends the instance (the image stays). */
void test_fs_close(struct test_fs *fs);

/* Mounts fs over a new image of fat_image_mkfs(args, kib) and returns the image (its size
 * is fs->md.size); a mount that fails ends the test. */
UINT8 *test_fs_fresh(struct test_fs *fs, const char *args, UINT32 kib);
/* Closes fs, checks its image with fsck.fat when fsck is set, and frees the image. */
void test_fs_done(struct test_fs *fs, bool fsck);

/* Whole-file helpers through EFI_FILE_PROTOCOL. */
EFI_STATUS test_fs_put(EFI_FILE_PROTOCOL *dir, const CHAR16 *path, const void *data, UINTN size);
/* Reads up to max bytes of path into buf; *size gets the length. */
EFI_STATUS test_fs_get(EFI_FILE_PROTOCOL *dir, const CHAR16 *path, void *buf, UINTN max,
		       UINTN *size);
/* EFI_FILE_INFO of an open handle in new pool memory (NULL on failure). */
EFI_FILE_INFO *test_fs_info(EFI_FILE_PROTOCOL *file);

#endif
