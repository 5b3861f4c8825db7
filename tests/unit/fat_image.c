/* Test support for the FAT driver (see fat_image.h). Tests may use libc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "support/test.h"
#include "fat_image.h"
#include "../../drivers/unicode_collation/collation.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

static const EFI_GUID file_info_guid = EFI_FILE_INFO_ID;

static char *temp_path(void)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/ember-fat-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		exit(2);
	}
	close(fd);
	return path;
}

static UINT8 *read_whole(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	UINT8 *data;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		perror(path);
		exit(2);
	}
	data = malloc(n ? (size_t)n : 1);
	if (!data || fread(data, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		exit(2);
	}
	fclose(f);
	*size = (size_t)n;
	return data;
}

/* Writes the image as a sparse file: most of it is zeros, and tests write many copies. */
static void write_whole(const char *path, const UINT8 *data, size_t size)
{
	static const UINT8 zeros[4096];
	FILE *f = fopen(path, "wb");
	bool ok = f && ftruncate(fileno(f), (off_t)size) == 0;

	for (size_t at = 0; ok && at < size; at += sizeof(zeros)) {
		size_t n = size - at < sizeof(zeros) ? size - at : sizeof(zeros);

		if (memcmp(data + at, zeros, n) != 0)
			ok = fseek(f, (long)at, SEEK_SET) == 0 && fwrite(data + at, 1, n, f) == n;
	}
	if (!ok || fclose(f)) {
		perror(path);
		exit(2);
	}
}

static char scratch[64];

static void remove_scratch(void)
{
	unlink(scratch);
}

const char *fat_image_scratch(void)
{
	if (!scratch[0]) {
		snprintf(scratch, sizeof(scratch), "/tmp/ember-fat-src-%d", (int)getpid());
		atexit(remove_scratch);
	}
	return scratch;
}

/* Replaces each %s of command with path, each %t with the scratch file's name. */
static char *expand(const char *command, const char *path)
{
	size_t n = strlen(command) + 1;
	char *out, *o;

	for (const char *p = command; (p = strchr(p, '%')); p++)
		n += strlen(path) + strlen(fat_image_scratch());
	out = o = malloc(n);
	for (const char *p = command; *p;) {
		if (p[0] == '%' && (p[1] == 's' || p[1] == 't')) {
			o = stpcpy(o, p[1] == 's' ? path : fat_image_scratch());
			p += 2;
		} else {
			*o++ = *p++;
		}
	}
	*o = 0;
	return out;
}

static int run_command(const char *command, char *out, size_t out_size)
{
	FILE *p = popen(command, "r");
	size_t used = 0;
	int status;

	if (!p) {
		perror("popen");
		exit(2);
	}
	if (out && out_size) {
		used = fread(out, 1, out_size - 1, p);
		out[used] = 0;
	}
	while (fgetc(p) != EOF)
		;
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 255;
}

UINT8 *fat_image_mkfs(const char *args, UINT32 size_kib, size_t *size)
{
	char *path = temp_path(), command[512], out[4096];
	UINT8 *image;

	unlink(path);
	snprintf(command, sizeof(command), "mkfs.vfat -C %s %u %s 2>&1", path, size_kib, args);
	if (run_command(command, out, sizeof(out)) != 0) {
		fprintf(stderr, "%s failed:\n%s\n", command, out);
		exit(2);
	}
	image = read_whole(path, size);
	unlink(path);
	return image;
}

/* fat_image_run; the image is read back only when the command may have changed it. */
static int run_on(UINT8 *image, size_t size, const char *command, char *out, size_t out_size,
		  bool read_back)
{
	char *path = temp_path(), *cmd;
	UINT8 *after;
	size_t after_size;
	int status;

	write_whole(path, image, size);
	cmd = expand(command, path);
	setenv("MTOOLS_SKIP_CHECK", "1", 1);
	status = run_command(cmd, out, out_size);
	if (read_back) {
		after = read_whole(path, &after_size);
		if (after_size == size)
			memcpy(image, after, size);
		free(after);
	}
	free(cmd);
	unlink(path);
	return status;
}

int fat_image_run(UINT8 *image, size_t size, const char *command, char *out, size_t out_size)
{
	return run_on(image, size, command, out, out_size, true);
}

int fat_image_fsck(UINT8 *image, size_t size, char *out, size_t out_size)
{
	return run_on(image, size, "fsck.fat -n %s 2>&1", out, out_size, false);
}

bool fat_image_fsck_clean(UINT8 *image, size_t size)
{
	char out[8192];
	int status = fat_image_fsck(image, size, out, sizeof(out));
	/* A clean run prints the version, the file name and one summary line. */
	int lines = 0;

	for (char *p = out; *p; p++)
		lines += *p == '\n';
	if (status == 0 && lines <= 3)
		return true;
	printf("    fsck.fat -n (exit %d):\n%s", status, out);
	return false;
}

struct fat_geometry fat_image_geometry(const UINT8 *image, size_t size)
{
	struct fat_geometry g;

	if (EFI_ERROR(fat_bpb_parse(image, size, &g))) {
		fprintf(stderr, "not a FAT image\n");
		exit(2);
	}
	return g;
}

UINT8 *fat_image_cluster(UINT8 *image, size_t size, UINT32 cluster)
{
	struct fat_geometry g = fat_image_geometry(image, size);

	return image + g.data_offset + (UINT64)(cluster - 2) * g.cluster_size;
}

/* The entry named name83 among count slots at first; NULL at the end marker or when absent
 * (*end tells which). */
static UINT8 *find_in(UINT8 *first, UINT32 count, const char *name83, bool *end)
{
	for (UINT32 i = 0; i < count; i++) {
		UINT8 *e = first + i * FAT_DIRENT_SIZE;

		if (e[0] == 0) {
			*end = true;
			return NULL;
		}
		if (e[11] != FAT_ATTR_LFN && memcmp(e, name83, 11) == 0)
			return e;
	}
	return NULL;
}

UINT8 *fat_image_entry(UINT8 *image, size_t size, const UINT8 *dir, const char *name83)
{
	struct fat_geometry g = fat_image_geometry(image, size);
	UINT32 c = dir ? (UINT32)fat_le16(dir + 20) << 16 | fat_le16(dir + 26) : g.root_cluster;
	bool end = false;

	if (!dir && g.type != FAT_32)
		return find_in(image + g.root_offset, g.root_entries, name83, &end);
	for (UINT32 n = 0; c >= 2 && c <= g.max_cluster && n < g.max_cluster && !end; n++) {
		UINT8 *e = find_in(fat_image_cluster(image, size, c),
				   g.cluster_size / FAT_DIRENT_SIZE, name83, &end);

		if (e)
			return e;
		c = fat_image_get_fat(image, size, c);
	}
	return NULL;
}

UINT32 fat_image_get_fat(const UINT8 *image, size_t size, UINT32 cluster)
{
	struct fat_geometry g = fat_image_geometry(image, size);
	const UINT8 *fat = image + g.fat_offset;

	if (g.type == FAT_32)
		return fat_le32(fat + 4 * cluster) & 0x0fffffff;
	if (g.type == FAT_16)
		return fat_le16(fat + 2 * cluster);
	return cluster & 1 ? fat_le16(fat + cluster + cluster / 2) >> 4
			   : fat_le16(fat + cluster + cluster / 2) & 0xfff;
}

void fat_image_set_fat(UINT8 *image, size_t size, UINT32 cluster, UINT32 value)
{
	struct fat_geometry g = fat_image_geometry(image, size);

	for (UINT32 copy = 0; copy < g.fat_count; copy++) {
		UINT8 *fat = image + g.fat_offset + copy * g.fat_bytes;

		if (g.type == FAT_32) {
			fat_put32(fat + 4 * cluster, value);
		} else if (g.type == FAT_16) {
			fat_put16(fat + 2 * cluster, (UINT16)value);
		} else {
			UINT8 *p = fat + cluster + cluster / 2;
			UINT16 v = fat_le16(p);

			v = cluster & 1 ? (UINT16)((v & 0x000f) | value << 4)
					: (UINT16)((v & 0xf000) | (value & 0xfff));
			fat_put16(p, v);
		}
	}
}

static EFI_STATUS md_access(struct fat_mem_disk *md, UINT64 offset, UINTN size, bool write)
{
	if (!md->present)
		return EFI_NO_MEDIA;
	if (md->seen_id != md->media_id)
		return EFI_MEDIA_CHANGED;
	if (md->fail && md->writes >= md->fail_after && (write || !md->fail_once)) {
		EFI_STATUS fail = md->fail;

		md->faults++;
		if (md->fail_once)
			md->fail = EFI_SUCCESS;
		return fail;
	}
	if (offset > md->size || size > md->size - offset)
		return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}

static EFI_STATUS md_read(struct fat_disk *disk, UINT64 offset, UINTN size, void *buffer)
{
	struct fat_mem_disk *md = container_of(disk, struct fat_mem_disk, disk);
	EFI_STATUS status = md_access(md, offset, size, false);

	if (EFI_ERROR(status))
		return status;
	md->reads++;
	md->read_bytes += size;
	memcpy(buffer, md->data + offset, size);
	return EFI_SUCCESS;
}

static EFI_STATUS md_write(struct fat_disk *disk, UINT64 offset, UINTN size, const void *buffer)
{
	struct fat_mem_disk *md = container_of(disk, struct fat_mem_disk, disk);
	EFI_STATUS status = md_access(md, offset, size, true);

	if (EFI_ERROR(status))
		return status;
	if (md->disk.read_only)
		return EFI_WRITE_PROTECTED;
	md->writes++;
	memcpy(md->data + offset, buffer, size);
	return EFI_SUCCESS;
}

static EFI_STATUS md_check(struct fat_disk *disk)
{
	struct fat_mem_disk *md = container_of(disk, struct fat_mem_disk, disk);

	if (!md->present)
		return EFI_NO_MEDIA;
	if (md->seen_id == md->media_id)
		return EFI_SUCCESS;
	md->seen_id = md->media_id;
	return EFI_MEDIA_CHANGED;
}

void fat_mem_disk_init(struct fat_mem_disk *md, UINT8 *image, size_t size)
{
	memset(md, 0, sizeof(*md));
	md->disk.read = md_read;
	md->disk.write = md_write;
	md->disk.check = md_check;
	md->disk.size = size;
	md->data = image;
	md->size = size;
	md->present = true;
}

EFI_STATUS test_fs_open(struct test_fs *fs, UINT8 *image, size_t size)
{
	EFI_STATUS status;

	fat_mem_disk_init(&fs->md, image, size);
	fs->root = NULL;
	status = fat_sfs_create(&fs->md.disk, &collation_english2, &fs->sfs);
	if (EFI_ERROR(status))
		return status;
	status = fs->sfs->sfs.OpenVolume(&fs->sfs->sfs, &fs->root);
	if (EFI_ERROR(status))
		fat_sfs_destroy(fs->sfs);
	return status;
}

void test_fs_close(struct test_fs *fs)
{
	if (fs->root)
		fs->root->Close(fs->root);
	fat_sfs_destroy(fs->sfs);
}

UINT8 *test_fs_fresh(struct test_fs *fs, const char *args, UINT32 kib)
{
	size_t size;
	UINT8 *image = fat_image_mkfs(args, kib, &size);

	ASSERT_STATUS(test_fs_open(fs, image, size), EFI_SUCCESS);
	return image;
}

void test_fs_done(struct test_fs *fs, bool fsck)
{
	test_fs_close(fs);
	if (fsck)
		EXPECT(fat_image_fsck_clean(fs->md.data, fs->md.size));
	free(fs->md.data);
}

EFI_STATUS test_fs_put(EFI_FILE_PROTOCOL *dir, const CHAR16 *path, const void *data, UINTN size)
{
	EFI_FILE_PROTOCOL *f;
	EFI_STATUS status =
	    dir->Open(dir, &f, (CHAR16 *)path,
		      EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, 0);

	if (EFI_ERROR(status))
		return status;
	status = f->Write(f, &size, (void *)data);
	f->Close(f);
	return status;
}

EFI_STATUS test_fs_get(EFI_FILE_PROTOCOL *dir, const CHAR16 *path, void *buf, UINTN max,
		       UINTN *size)
{
	EFI_FILE_PROTOCOL *f;
	EFI_STATUS status = dir->Open(dir, &f, (CHAR16 *)path, EFI_FILE_MODE_READ, 0);

	if (EFI_ERROR(status))
		return status;
	*size = max;
	status = f->Read(f, size, buf);
	f->Close(f);
	return status;
}

EFI_FILE_INFO *test_fs_info(EFI_FILE_PROTOCOL *file)
{
	UINTN size = 0;
	EFI_FILE_INFO *info;

	if (file->GetInfo(file, (EFI_GUID *)&file_info_guid, &size, NULL) != EFI_BUFFER_TOO_SMALL)
		return NULL;
	info = pool_alloc(size);
	if (info && EFI_ERROR(file->GetInfo(file, (EFI_GUID *)&file_info_guid, &size, info))) {
		pool_free(info);
		info = NULL;
	}
	return info;
}
