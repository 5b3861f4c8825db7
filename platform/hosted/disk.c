/* `--disk IMAGE[:ro]`: raw image files as block devices. Each image gets a handle with
 * EFI_BLOCK_IO_PROTOCOL, EFI_BLOCK_IO2_PROTOCOL (the block-device front end, drivers/blkdev,
 * which checks every request) and a VenHw(EMBER_HOSTED_DISK_GUID, index) device path; the drivers
 * (Disk I/O, partitions, FAT) bind to it when controllers are connected. Disk images have 512-byte
 * blocks; ISO 9660 images (named *.iso, or carrying the "CD001" signature) are read-only CD media
 * with 2048-byte blocks. Writes go straight to the file; FlushBlocks is fsync. */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>

#include "hosted.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/drivers/blkdev.h>
#include <ember/lib/util.h>

#define MAX_DISKS 64
#define DISK_BLOCK 512
#define CD_BLOCK 2048
#define ISO_SIGNATURE_OFFSET (16 * CD_BLOCK + 1)

struct hosted_disk {
	struct blkdev blk; /* BlockIo, BlockIo2, the media and the handle */
	struct hosted_index_path path;
	int fd;
	UINT8 *map; /* the whole image, when it could be mapped */
	UINT64 bytes;
};

static struct disk_option {
	char *file;
	bool read_only;
} options[MAX_DISKS];
static UINT32 option_count;
static struct hosted_disk *disks[MAX_DISKS];

void hosted_disk_add(const char *spec)
{
	size_t n = strlen(spec);
	struct disk_option *o = &options[option_count];

	if (option_count == MAX_DISKS) {
		fprintf(stderr, "ember-run: at most %d --disk options\n", MAX_DISKS);
		exit(2);
	}
	o->read_only = n > 3 && !strcmp(spec + n - 3, ":ro");
	o->file = strndup(spec, o->read_only ? n - 3 : n);
	if (!o->file)
		exit(2);
	option_count++;
}

UINT32 hosted_disk_count(void)
{
	return option_count;
}

EFI_DEVICE_PATH_PROTOCOL *hosted_disk_path(UINT32 index)
{
	return index < option_count && disks[index] ? &disks[index]->path.vendor.Header : NULL;
}

/* ---- blkdev operations: requests arrive checked ---- */

static struct hosted_disk *disk_of(struct blkdev *blk)
{
	return container_of(blk, struct hosted_disk, blk);
}

/* A mapped image is a memcpy away (the page cache copies into unaligned buffers at a
 * fraction of memcpy's speed); else pread/pwrite until done, as they may do less. */
static EFI_STATUS transfer(struct hosted_disk *d, EFI_LBA lba, UINTN size, void *buffer, bool write)
{
	off_t offset = (off_t)(lba * d->blk.media.BlockSize);
	char *p = buffer;

	if (d->map) {
		if (write)
			memcpy(d->map + offset, buffer, size);
		else
			memcpy(buffer, d->map + offset, size);
		return EFI_SUCCESS;
	}
	while (size) {
		ssize_t n = write ? pwrite(d->fd, p, size, offset) : pread(d->fd, p, size, offset);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return EFI_DEVICE_ERROR;
		p += n;
		offset += n;
		size -= (UINTN)n;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS disk_read(struct blkdev *blk, EFI_LBA lba, UINTN size, void *buffer)
{
	return transfer(disk_of(blk), lba, size, buffer, false);
}

static EFI_STATUS disk_write(struct blkdev *blk, EFI_LBA lba, UINTN size, const void *buffer)
{
	return transfer(disk_of(blk), lba, size, (void *)buffer, true);
}

/* FlushBlocks: the mapping's pages, then the file (read-only media never get here). */
static EFI_STATUS disk_flush(struct blkdev *blk)
{
	struct hosted_disk *d = disk_of(blk);

	if (d->map && msync(d->map, d->bytes, MS_SYNC))
		return EFI_DEVICE_ERROR;
	return fsync(d->fd) ? EFI_DEVICE_ERROR : EFI_SUCCESS;
}

static const struct blkdev_ops disk_ops = {
    .read = disk_read,
    .write = disk_write,
    .flush = disk_flush,
};

/* ---- Attaching ---- */

static _Noreturn void disk_error(const char *file, const char *what)
{
	fprintf(stderr, "ember-run: --disk %s: %s\n", file, what);
	exit(2);
}

static bool is_iso(int fd, const char *file)
{
	size_t n = strlen(file);
	char id[5];

	if (n > 4 && !strcasecmp(file + n - 4, ".iso"))
		return true;
	return pread(fd, id, sizeof(id), ISO_SIGNATURE_OFFSET) == sizeof(id) &&
	       !memcmp(id, "CD001", sizeof(id));
}

static void init_media(EFI_BLOCK_IO_MEDIA *media, const struct disk_option *o, UINT64 bytes,
		       bool cd)
{
	media->RemovableMedia = cd;
	media->MediaPresent = TRUE;
	media->ReadOnly = cd || o->read_only;
	media->BlockSize = cd ? CD_BLOCK : DISK_BLOCK;
	media->LastBlock = bytes / media->BlockSize - 1;
	media->LogicalBlocksPerPhysicalBlock = 1;
	if (bytes % media->BlockSize)
		fprintf(stderr,
			"ember-run: warning: --disk %s: the last %u bytes are not a whole "
			"block and cannot be reached\n",
			o->file, (unsigned)(bytes % media->BlockSize));
}

void hosted_index_path_init(struct hosted_index_path *path, const EFI_GUID *vendor, UINT32 index)
{
	dp_set_node(&path->vendor.Header, HARDWARE_DEVICE_PATH, HW_VENDOR_DP,
		    sizeof(path->vendor) + sizeof(path->index));
	path->vendor.Guid = *vendor;
	path->index = index;
	dp_set_end(&path->end);
}

/* Opens one image file: read-write unless :ro; CDs are read-only media, so a CD image
 * the user may not write is fine. */
static int open_image(const struct disk_option *o, UINT64 *bytes, bool *cd)
{
	/* O_NONBLOCK: a FIFO is refused after fstat instead of blocking the open until
	 * someone writes to it; it is cleared again for the image's reads and writes. */
	int fd = open(o->file, (o->read_only ? O_RDONLY : O_RDWR) | O_CLOEXEC | O_NONBLOCK);
	bool writable = !o->read_only;
	struct stat st;
	off_t end;

	if (fd < 0 && writable && (errno == EACCES || errno == EROFS)) {
		fd = open(o->file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		writable = false;
	}
	if (fd < 0)
		disk_error(o->file, strerror(errno));
	if (fstat(fd, &st) || (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)))
		disk_error(o->file, "not a regular file or block device");
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	end = lseek(fd, 0, SEEK_END);
	*cd = is_iso(fd, o->file);
	if (!o->read_only && !writable && !*cd)
		disk_error(o->file, "cannot open it for writing (add :ro for read-only)");
	if (end < (*cd ? CD_BLOCK : DISK_BLOCK))
		disk_error(o->file, "too small to hold one block");
	*bytes = (UINT64)end;
	return fd;
}

static void attach_one(UINT32 index)
{
	static const EFI_GUID vendor = EMBER_HOSTED_DISK_GUID;
	const struct disk_option *o = &options[index];
	struct hosted_disk *d = pool_alloc(sizeof(*d));
	EFI_HANDLE handle = NULL;
	UINT64 bytes;
	bool cd;

	if (!d)
		disk_error(o->file, "out of memory");
	blkdev_init(&d->blk, &disk_ops);
	d->fd = open_image(o, &bytes, &cd);
	init_media(&d->blk.media, o, bytes, cd);
	d->bytes = bytes;
	d->map = mmap(NULL, bytes, PROT_READ | (d->blk.media.ReadOnly ? 0 : PROT_WRITE), MAP_SHARED,
		      d->fd, 0);
	if (d->map == MAP_FAILED)
		d->map = NULL;
	hosted_index_path_init(&d->path, &vendor, index);
	if (EFI_ERROR(blkdev_install(&d->blk, &handle, &d->path.vendor.Header)))
		disk_error(o->file, "cannot install its BlockIo");
	disks[index] = d;
}

void hosted_disks_attach(void)
{
	for (UINT32 i = 0; i < option_count; i++)
		attach_one(i);
}
