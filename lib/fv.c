/* Firmware volume headers and FFS files (PI 1.8 volume 3, 3.2 and 2.2), read within the
 * bounds given: include/ember/lib/fv.h. */
#include <ember/lib/fv.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

/* The header's fixed part before the block map. */
#define FV_HEADER_FIXED 56
#define FFS_HEADER_SIZE 24
#define FFS_HEADER2_SIZE 32
#define FFS_ALIGNMENT 8

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

uint8_t fv_sum8(const void *data, size_t size)
{
	const uint8_t *p = data;
	uint8_t sum = 0;

	while (size--)
		sum = (uint8_t)(sum + *p++);
	return sum;
}

uint16_t fv_sum16(const void *data, size_t size)
{
	const uint8_t *p = data;
	uint16_t sum = 0;

	for (size_t i = 0; i + 1 < size; i += 2)
		sum = (uint16_t)(sum + (p[i] | p[i + 1] << 8));
	return sum;
}

/* The block map: entries of (count, length) up to one of zeros, whose blocks add up to the
 * volume's length. */
static const char *check_block_map(const uint8_t *map, size_t room, uint64_t length)
{
	uint64_t total = 0;

	for (size_t at = 0; at + 8 <= room; at += 8) {
		uint32_t count = get32(map + at), block = get32(map + at + 4);
		if (count == 0 && block == 0)
			return total == length ? NULL
					       : "the block map does not add up to its length";
		if (count == 0 || block == 0)
			return "a block map entry with a zero count or length";
		total += (uint64_t)count * block;
		if (total > length)
			return "the block map is longer than the volume";
	}
	return "the block map has no end inside the header";
}

/* The extended header names the volume; it lies after the header, inside the volume. */
static const char *read_ext_header(struct fv_volume *vol, uint16_t offset, size_t header_len)
{
	uint32_t ext_size;

	if (offset == 0)
		return NULL;
	if (offset < header_len || offset % 4 || offset > vol->size - 20)
		return "the extended header lies outside the volume";
	ext_size = get32(vol->base + offset + 16);
	if (ext_size < 20 || ext_size > vol->size - offset)
		return "the extended header's size is wrong";
	mem_copy(&vol->name, vol->base + offset, sizeof(vol->name));
	vol->named = true;
	return NULL;
}

const char *fv_open(struct fv_volume *vol, const void *data, size_t size)
{
	const EFI_FIRMWARE_VOLUME_HEADER *h = data;
	const uint8_t *p = data;
	uint64_t length;
	uint16_t header_len;
	const char *why;

	mem_set(vol, 0, sizeof(*vol));
	if (size < sizeof(*h))
		return "shorter than a volume header";
	if (get32(p + 40) != EFI_FVH_SIGNATURE)
		return "no _FVH signature";
	length = get64(p + 32);
	header_len = (uint16_t)(p[48] | p[49] << 8);
	if (length > size)
		return "the volume is truncated (FvLength past the data)";
	if (header_len < sizeof(*h) || header_len % 2 || header_len > length)
		return "the header length is wrong";
	if (p[55] != EFI_FVH_REVISION)
		return "an unknown header revision";
	if (fv_sum16(p, header_len) != 0)
		return "the header checksum is wrong";
	why = check_block_map(p + FV_HEADER_FIXED, header_len - FV_HEADER_FIXED, length);
	if (why)
		return why;
	if (guid_eq(&h->FileSystemGuid, &efi_firmware_file_system3_guid))
		vol->ffs3 = true;
	else if (!guid_eq(&h->FileSystemGuid, &efi_firmware_file_system2_guid))
		return "not an FFS2 or FFS3 file system";
	vol->base = p;
	vol->size = (size_t)length;
	vol->attributes = get32(p + 44);
	vol->erased = vol->attributes & EFI_FVB2_ERASE_POLARITY ? 0xFF : 0x00;
	vol->files_start = ALIGN_UP((size_t)header_len, FFS_ALIGNMENT);
	return read_ext_header(vol, (uint16_t)(p[52] | p[53] << 8), header_len);
}

uint8_t fv_file_state(const struct fv_volume *vol, uint8_t state)
{
	return vol->erased ? (uint8_t)~state : state;
}

static bool all_erased(const struct fv_volume *vol, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != vol->erased)
			return false;
	return true;
}

/* The header's checksum: the sum of the header with State and the file checksum taken as
 * zero is zero. */
static bool header_sum_ok(const uint8_t *h, size_t header_size)
{
	return (uint8_t)(fv_sum8(h, header_size) - h[17] - h[23]) == 0;
}

/* The highest state bit set says where a file is in its life (2.1.4.1). */
static uint8_t highest_state(uint8_t state)
{
	uint8_t bit = 0x80;

	while (bit && !(state & bit))
		bit >>= 1;
	return bit;
}

/* Size, header size and checksums of the file at offset; the walk goes on after a file
 * whose header is good, stops at one whose header is not. */
static enum fv_walk read_file(const struct fv_volume *vol, size_t offset, struct fv_file *file,
			      uint8_t *state, const char **why)
{
	const uint8_t *h = vol->base + offset;
	size_t room = vol->size - offset, header_size = FFS_HEADER_SIZE;
	uint64_t size = (uint64_t)h[20] | (uint64_t)h[21] << 8 | (uint64_t)h[22] << 16;

	if (h[19] & FFS_ATTRIB_LARGE_FILE) {
		if (!vol->ffs3) {
			*why = "a large file in an FFS2 volume";
			return FV_WALK_BROKEN;
		}
		if (room < FFS_HEADER2_SIZE) {
			*why = "a file header is truncated";
			return FV_WALK_BROKEN;
		}
		header_size = FFS_HEADER2_SIZE;
		size = get64(h + 24);
	}
	if (!header_sum_ok(h, header_size)) {
		*why = "a file header's checksum is wrong";
		return FV_WALK_BROKEN;
	}
	if (size < header_size || size > room) {
		*why = size > room ? "a file is truncated (it ends past the volume)"
				   : "a file is shorter than its header";
		return FV_WALK_BROKEN;
	}
	mem_copy(&file->name, h, sizeof(file->name));
	file->offset = offset;
	file->size = (size_t)size;
	file->data = h + header_size;
	file->data_size = (size_t)size - header_size;
	file->type = h[18];
	file->attributes = h[19];
	*state = highest_state(fv_file_state(vol, h[23]));
	return FV_WALK_FILE;
}

static enum fv_walk check_file(const struct fv_file *file, const uint8_t *h, const char **why)
{
	if (file->attributes & FFS_ATTRIB_CHECKSUM) {
		if ((uint8_t)(fv_sum8(file->data, file->data_size) + h[17]) != 0) {
			*why = "the file's data checksum is wrong";
			return FV_WALK_DAMAGED;
		}
	} else if (h[17] != FFS_FIXED_CHECKSUM) {
		*why = "the file's fixed checksum is wrong";
		return FV_WALK_DAMAGED;
	}
	return FV_WALK_FILE;
}

enum fv_walk fv_next_file(const struct fv_volume *vol, size_t *offset, struct fv_file *file,
			  const char **why)
{
	for (;;) {
		size_t at = ALIGN_UP(*offset, FFS_ALIGNMENT);
		enum fv_walk walk;
		uint8_t state;

		if (at >= vol->size || vol->size - at < FFS_HEADER_SIZE ||
		    all_erased(vol, vol->base + at, FFS_HEADER_SIZE)) {
			*offset = vol->size;
			return FV_WALK_END;
		}
		walk = read_file(vol, at, file, &state, why);
		if (walk != FV_WALK_FILE) {
			*offset = vol->size;
			return walk;
		}
		*offset = at + file->size;
		/* Deleted, invalid or half-written files are not files; one being
		 * updated still is, until its replacement is valid (2.1.4.1). */
		if (state == EFI_FILE_DATA_VALID || state == EFI_FILE_MARKED_FOR_UPDATE)
			return check_file(file, vol->base + at, why);
		if (state == EFI_FILE_HEADER_VALID) {
			*why = "a file whose data was never completed";
			return FV_WALK_DAMAGED;
		}
	}
}
