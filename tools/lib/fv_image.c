/* Writing firmware volumes (PI 1.8 volume 3) on the host: include/ember/tools/fv_image.h. */
#include <ember/lib/fv.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>
#include <ember/tools/fv_image.h>
#include <ember/tools/uefi_compress.h>

#include <stdlib.h>
#include <string.h>

#define HEADER_LENGTH 72 /* the fixed part, one block map entry and the terminating one */
#define FILE_HEADER 24

static const EFI_GUID ffs2_guid = EFI_FIRMWARE_FILE_SYSTEM2_GUID;

void fv_image_format(uint8_t *buf, size_t size, const EFI_GUID *name)
{
	EFI_FIRMWARE_VOLUME_HEADER *h = (EFI_FIRMWARE_VOLUME_HEADER *)buf;
	uint8_t *pad = buf + HEADER_LENGTH;
	EFI_FIRMWARE_VOLUME_EXT_HEADER ext = {*name, sizeof(ext)};
	EFI_FFS_FILE_HEADER *ph = (EFI_FFS_FILE_HEADER *)pad;

	memset(buf, 0xFF, size);
	memset(buf, 0, HEADER_LENGTH);
	h->FileSystemGuid = ffs2_guid;
	h->FvLength = size;
	h->Signature = EFI_FVH_SIGNATURE;
	h->Attributes = EFI_FVB2_READ_DISABLED_CAP | EFI_FVB2_READ_ENABLED_CAP |
			EFI_FVB2_READ_STATUS | EFI_FVB2_STICKY_WRITE | EFI_FVB2_MEMORY_MAPPED |
			EFI_FVB2_ERASE_POLARITY | EFI_FVB2_ALIGNMENT_8;
	h->HeaderLength = HEADER_LENGTH;
	h->ExtHeaderOffset = HEADER_LENGTH + FILE_HEADER;
	h->Revision = EFI_FVH_REVISION;
	h->BlockMap[0].NumBlocks = (uint32_t)(size / FV_IMAGE_BLOCK_SIZE);
	h->BlockMap[0].Length = FV_IMAGE_BLOCK_SIZE;
	fv_seal_header(h);
	/* The extended header lives in a pad file, where readers that do not know it skip
	 * it as padding. */
	memset(ph, 0, FILE_HEADER);
	memset(&ph->Name, 0xFF, sizeof(ph->Name));
	ph->Type = EFI_FV_FILETYPE_FFS_PAD;
	ph->Attributes = FFS_ATTRIB_CHECKSUM;
	fv_put_size3(ph->Size, FILE_HEADER + sizeof(ext));
	memcpy(pad + FILE_HEADER, &ext, sizeof(ext));
	fv_seal_file(ph, FILE_HEADER + sizeof(ext), 0xFF);
}

/* A growing buffer of sections, each 4-aligned from the file data's start. */
struct sections {
	uint8_t *buf;
	size_t len, cap;
	bool failed;
};

static uint8_t *reserve(struct sections *s, size_t n)
{
	size_t at = ALIGN_UP(s->len, 4);

	if (s->failed || n > 0xFFFFFF - at) {
		s->failed = true;
		return NULL;
	}
	if (at + n > s->cap) {
		size_t cap = (at + n) * 2;
		uint8_t *grown = realloc(s->buf, cap);
		if (!grown) {
			s->failed = true;
			return NULL;
		}
		s->buf = grown;
		s->cap = cap;
	}
	memset(s->buf + s->len, 0, at + n - s->len);
	s->len = at + n;
	return s->buf + at;
}

static void add_section(struct sections *s, uint8_t type, const void *head, size_t head_size,
			const void *data, size_t size)
{
	uint8_t *p = reserve(s, 4 + head_size + size);

	if (!p)
		return;
	fv_put_size3(p, (uint32_t)(4 + head_size + size));
	p[3] = type;
	if (head_size)
		memcpy(p + 4, head, head_size);
	if (size)
		memcpy(p + 4 + head_size, data, size);
}

/* The PE32 section, inside a UEFI-compressed compression section when asked. */
static void add_image(struct sections *s, const struct fv_image_file *spec)
{
	struct sections inner = {0};
	uint8_t fields[5];
	uint8_t *packed;
	size_t packed_size;

	if (!spec->compress) {
		add_section(s, EFI_SECTION_PE32, NULL, 0, spec->pe, spec->pe_size);
		return;
	}
	add_section(&inner, EFI_SECTION_PE32, NULL, 0, spec->pe, spec->pe_size);
	packed = inner.failed ? NULL : uefi_compress(inner.buf, inner.len, &packed_size);
	if (!packed) {
		s->failed = true;
	} else {
		fields[0] = (uint8_t)inner.len;
		fields[1] = (uint8_t)(inner.len >> 8);
		fields[2] = (uint8_t)(inner.len >> 16);
		fields[3] = (uint8_t)(inner.len >> 24);
		fields[4] = EFI_STANDARD_COMPRESSION;
		add_section(s, EFI_SECTION_COMPRESSION, fields, sizeof(fields), packed,
			    packed_size);
	}
	free(packed);
	free(inner.buf);
}

/* A UCS-2 string with its NUL, from ASCII. */
static void add_text(struct sections *s, uint8_t type, const uint8_t *head, size_t head_size,
		     const char *text)
{
	size_t units = strlen(text) + 1;
	uint8_t *ucs2 = calloc(units, 2);

	if (!ucs2) {
		s->failed = true;
		return;
	}
	for (size_t i = 0; i < units; i++)
		ucs2[2 * i] = (uint8_t)text[i];
	add_section(s, type, head, head_size, ucs2, units * 2);
	free(ucs2);
}

uint8_t *fv_image_make_file(const struct fv_image_file *spec, uint8_t erased, size_t *size)
{
	struct sections s = {0};
	uint8_t build[2] = {(uint8_t)spec->build, (uint8_t)(spec->build >> 8)};
	EFI_FFS_FILE_HEADER *h;

	reserve(&s, FILE_HEADER);
	if (spec->depex_size)
		add_section(&s, EFI_SECTION_DXE_DEPEX, NULL, 0, spec->depex, spec->depex_size);
	add_image(&s, spec);
	if (spec->ui)
		add_text(&s, EFI_SECTION_USER_INTERFACE, NULL, 0, spec->ui);
	add_text(&s, EFI_SECTION_VERSION, build, sizeof(build), "1.0");
	if (s.failed) {
		free(s.buf);
		return NULL;
	}
	h = (EFI_FFS_FILE_HEADER *)s.buf;
	h->Name = spec->name;
	h->Type = spec->type;
	h->Attributes = FFS_ATTRIB_CHECKSUM;
	fv_put_size3(h->Size, (uint32_t)s.len);
	fv_seal_file(h, s.len, erased);
	*size = s.len;
	return s.buf;
}

const char *fv_image_append(uint8_t *vol, size_t vol_size, const uint8_t *file, size_t file_size)
{
	struct fv_volume fv;
	struct fv_file f;
	size_t offset, end = 0;
	const char *why = fv_open(&fv, vol, vol_size);
	enum fv_walk walk;

	if (why)
		return why;
	offset = fv.files_start;
	end = offset;
	while ((walk = fv_next_file(&fv, &offset, &f, &why)) != FV_WALK_END) {
		if (walk == FV_WALK_BROKEN)
			return why;
		if (!memcmp(&f.name, file, sizeof(EFI_GUID)))
			return "a file of that GUID is in the volume already";
		end = offset;
	}
	end = ALIGN_UP(end, 8);
	if (end > fv.size || fv.size - end < file_size)
		return "no room left in the volume";
	for (size_t i = end; i < end + file_size; i++)
		if (vol[i] != fv.erased)
			return "the free space is not erased";
	memcpy(vol + end, file, file_size);
	return NULL;
}

/* The alignment a file's data needs (PI 1.8 volume 3, 2.2.3: FFS_ATTRIB_DATA_ALIGNMENT,
 * extended by FFS_ATTRIB_DATA_ALIGNMENT_2). */
static size_t data_alignment(uint8_t attributes)
{
	static const size_t sizes[] = {1, 16, 128, 512, 1024, 4096, 32768, 65536};
	static const size_t sizes_2[] = {128 * 1024,  256 * 1024,  512 * 1024,	1024 * 1024,
					 2048 * 1024, 4096 * 1024, 8192 * 1024, 16384 * 1024};
	unsigned index = (attributes & FFS_ATTRIB_DATA_ALIGNMENT) >> 3;

	return attributes & FFS_ATTRIB_DATA_ALIGNMENT_2 ? sizes_2[index] : sizes[index];
}

/* Files after offset that would lose their data alignment if moved down by shift. */
static bool later_file_misaligned(const struct fv_volume *fv, size_t offset, size_t shift)
{
	struct fv_file f;
	size_t at = offset;
	const char *why;

	while (fv_next_file(fv, &at, &f, &why) != FV_WALK_END)
		if (f.offset > offset && shift % data_alignment(f.attributes))
			return true;
	return false;
}

const char *fv_image_remove(uint8_t *vol, size_t vol_size, size_t offset, size_t file_size)
{
	struct fv_volume fv;
	struct fv_file f;
	size_t walk_at, end, next;
	const char *why = fv_open(&fv, vol, vol_size);
	enum fv_walk walk;

	if (why)
		return why;
	walk_at = fv.files_start;
	end = walk_at;
	while ((walk = fv_next_file(&fv, &walk_at, &f, &why)) != FV_WALK_END) {
		if (walk == FV_WALK_BROKEN)
			return why;
		end = walk_at;
	}
	if (offset < fv.files_start || offset >= end || file_size > end - offset)
		return "no such file";
	/* Files keep their 8-byte alignment: the gap moved over is a multiple of 8. */
	next = ALIGN_UP(offset + file_size, 8);
	if (next > end)
		next = end;
	if (later_file_misaligned(&fv, offset, next - offset))
		return "a file after it needs an alignment that moving it would break";
	memmove(vol + offset, vol + next, end - next);
	memset(vol + offset + (end - next), fv.erased, next - offset);
	return NULL;
}

bool fv_image_file_ui(const uint8_t *data, size_t size, char *out, size_t out_size)
{
	struct fv_section s;
	size_t offset = 0, n = 0;
	const char *why;

	while (fv_next_section(data, size, &offset, &s, &why) > 0) {
		if (s.type != EFI_SECTION_USER_INTERFACE)
			continue;
		for (size_t i = 0; i + 1 < s.data_size && n + 1 < out_size; i += 2) {
			uint16_t unit = (uint16_t)(s.data[i] | s.data[i + 1] << 8);
			if (!unit)
				break;
			out[n++] = unit < 0x7F && unit >= 0x20 ? (char)unit : '?';
		}
		out[n] = 0;
		return true;
	}
	return false;
}
