/* 8.3 names, numeric tails and VFAT long-name entries. A name that fits 8.3 in one case
 * per part is stored as a short entry alone, with the NT lower-case flags for a lower-case
 * part (as Windows and mtools do); any other name gets long-name entries and a short
 * alias made by the collation protocol's StrToFat. */
#include "fat_format.h"
#include <ember/lib/path.h>
#include <ember/lib/str.h>

/* Punctuation allowed in 8.3 names (besides letters and digits). */
static const CHAR16 short_punct[] = u"!#$%&'()-@^_`{}~";

static bool short_char(CHAR16 c)
{
	return (c >= u'A' && c <= u'Z') || (c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9') ||
	       (c && str16_chr(short_punct, c));
}

/* Copies one part in upper case and reports the case of its letters. */
static void copy_part(const CHAR16 *src, size_t len, UINT8 *dst, bool *upper, bool *lower)
{
	*upper = *lower = false;
	for (size_t i = 0; i < len; i++) {
		CHAR16 c = src[i];

		*upper |= c >= u'A' && c <= u'Z';
		*lower |= c >= u'a' && c <= u'z';
		dst[i] = (UINT8)(c >= u'a' && c <= u'z' ? c - 0x20 : c);
	}
}

/* A name that is 8.3 already (apart from case): fills the plan and returns true. */
static bool fits_8_3(const CHAR16 *name, size_t len, struct fat_name_plan *plan)
{
	size_t dot = len, base_len, ext_len;
	bool bu, bl, eu, el;

	for (size_t i = 0; i < len; i++) {
		if (name[i] == u'.' && dot == len)
			dot = i;
		else if (!short_char(name[i]))
			return false;
	}
	base_len = dot;
	ext_len = dot < len ? len - dot - 1 : 0;
	if (base_len < 1 || base_len > 8 || ext_len > 3 || (dot < len && ext_len == 0))
		return false;
	copy_part(name, base_len, plan->short_name, &bu, &bl);
	copy_part(name + dot + 1, ext_len, plan->short_name + 8, &eu, &el);
	if ((bu && bl) || (eu && el)) {
		plan->need_lfn = true; /* mixed case: the long name keeps it */
		return true;
	}
	plan->nt_case = (bl ? FAT_CASE_LOWER_BASE : 0) | (el ? FAT_CASE_LOWER_EXT : 0);
	return true;
}

/* StrToFat of units [start, end) of name into at most size bytes; returns the count. */
static size_t convert_part(EFI_UNICODE_COLLATION_PROTOCOL *uc, const CHAR16 *name, size_t start,
			   size_t end, UINT8 *out, size_t size)
{
	CHAR16 part[FAT_NAME_MAX + 1];
	CHAR8 fat[9] = {0};
	size_t n = MIN(end - start, (size_t)FAT_NAME_MAX);

	mem_copy(part, name + start, n * sizeof(CHAR16));
	part[n] = 0;
	uc->StrToFat(uc, part, size, fat);
	n = str8_len(fat) < size ? str8_len(fat) : size;
	mem_copy(out, fat, n);
	return n;
}

/* The basis name of the FAT specification's short-name generation: leading dots go,
 * the part before the last dot becomes the primary, the part after it the extension,
 * each converted with StrToFat. */
static void make_basis(EFI_UNICODE_COLLATION_PROTOCOL *uc, const CHAR16 *name, size_t len,
		       UINT8 *basis)
{
	size_t start = 0, last = len;

	while (start < len && name[start] == u'.')
		start++;
	for (size_t i = start; i < len; i++)
		if (name[i] == u'.')
			last = i;
	if (convert_part(uc, name, start, last, basis, 8) == 0)
		basis[0] = '_';
	if (last < len)
		convert_part(uc, name, last + 1, len, basis + 8, 3);
	if (basis[0] == FAT_ENTRY_FREE)
		basis[0] = FAT_ENTRY_KANJI_E5;
}

void fat_name_plan(EFI_UNICODE_COLLATION_PROTOCOL *uc, const CHAR16 *name, size_t len,
		   struct fat_name_plan *plan)
{
	mem_set(plan->short_name, ' ', sizeof(plan->short_name));
	plan->nt_case = 0;
	plan->need_lfn = false;
	plan->need_tail = false;
	if (fits_8_3(name, len, plan))
		return;
	plan->need_lfn = true;
	plan->need_tail = true;
	make_basis(uc, name, len, plan->short_name);
}

static size_t primary_len(const UINT8 *basis)
{
	size_t n = 8;

	while (n > 0 && basis[n - 1] == ' ')
		n--;
	return n;
}

void fat_name_tail(const UINT8 basis[11], UINT32 n, UINT8 out[11])
{
	char digits[11];
	size_t count = 0, keep;

	n = MIN(MAX(n, 1u), 999999u);
	for (; n; n /= 10)
		digits[count++] = (char)('0' + n % 10);
	keep = MIN(primary_len(basis), 8 - (count + 1));
	mem_copy(out, basis, 11);
	mem_set(out + keep, ' ', 8 - keep);
	out[keep] = '~';
	for (size_t i = 0; i < count; i++)
		out[keep + 1 + i] = (UINT8)digits[count - 1 - i];
}

void fat_name_hashed(const UINT8 basis[11], UINT16 hash, UINT32 n, UINT8 out[11])
{
	static const char hex[] = "0123456789ABCDEF";
	UINT8 tmp[11];
	size_t keep = MIN(primary_len(basis), (size_t)2);

	mem_copy(tmp, basis, 11);
	mem_set(tmp + keep, ' ', 8 - keep);
	for (int i = 0; i < 4; i++)
		tmp[keep + i] = (UINT8)hex[(hash >> (12 - 4 * i)) & 0xf];
	fat_name_tail(tmp, MIN(MAX(n, 1u), 9u), out);
}

size_t fat_name_trim(const CHAR16 *name, size_t len)
{
	while (len > 0 && (name[len - 1] == u'.' || name[len - 1] == u' '))
		len--;
	return len;
}

bool fat_name_valid(const CHAR16 *name, size_t len)
{
	return len > 0 && fat_name_trim(name, len) == len && path_name_creatable(name, len);
}

/* One space-padded part of an 8.3 name, converted and optionally lowered. */
static size_t display_part(EFI_UNICODE_COLLATION_PROTOCOL *uc, const UINT8 *part, size_t size,
			   bool lower, CHAR16 *out)
{
	CHAR8 bytes[8];
	size_t n = size;

	while (n > 0 && part[n - 1] == ' ')
		n--;
	mem_copy(bytes, part, n);
	if (n > 0 && size == 8 && (UINT8)bytes[0] == FAT_ENTRY_KANJI_E5)
		bytes[0] = (CHAR8)FAT_ENTRY_FREE;
	uc->FatToStr(uc, n, bytes, out);
	if (lower)
		uc->StrLwr(uc, out);
	return str16_len(out);
}

size_t fat_short_display(EFI_UNICODE_COLLATION_PROTOCOL *uc, const UINT8 name[11], UINT8 nt_case,
			 CHAR16 *out)
{
	size_t n = display_part(uc, name, 8, nt_case & FAT_CASE_LOWER_BASE, out);
	CHAR16 ext[4];
	size_t e = display_part(uc, name + 8, 3, nt_case & FAT_CASE_LOWER_EXT, ext);

	if (e) {
		out[n++] = u'.';
		mem_copy(out + n, ext, (e + 1) * sizeof(CHAR16));
		n += e;
	}
	return n;
}

UINT8 fat_lfn_checksum(const UINT8 name[11])
{
	UINT8 sum = 0;

	for (int i = 0; i < 11; i++)
		sum = (UINT8)(((sum & 1) << 7) + (sum >> 1) + name[i]);
	return sum;
}

void fat_lfn_pack(const CHAR16 *name, size_t len, UINT8 checksum, struct fat_lfn *entries)
{
	UINT32 count = fat_lfn_count(len);

	for (UINT32 k = 1; k <= count; k++) {
		struct fat_lfn *e = &entries[count - k];
		CHAR16 u[FAT_LFN_CHARS];

		for (size_t j = 0; j < FAT_LFN_CHARS; j++) {
			size_t pos = (k - 1) * FAT_LFN_CHARS + j;
			u[j] = pos < len ? name[pos] : pos == len ? 0 : 0xffff;
		}
		e->order = (UINT8)(k | (k == count ? FAT_LFN_LAST : 0));
		e->attr = FAT_ATTR_LFN;
		e->type = 0;
		e->checksum = checksum;
		e->cluster = 0;
		for (int j = 0; j < 5; j++)
			e->name1[j] = u[j];
		for (int j = 0; j < 6; j++)
			e->name2[j] = u[5 + j];
		for (int j = 0; j < 2; j++)
			e->name3[j] = u[11 + j];
	}
}

void fat_lfn_unpack(const struct fat_lfn *e, CHAR16 *out)
{
	for (int j = 0; j < 5; j++)
		out[j] = e->name1[j];
	for (int j = 0; j < 6; j++)
		out[5 + j] = e->name2[j];
	for (int j = 0; j < 2; j++)
		out[11 + j] = e->name3[j];
}
