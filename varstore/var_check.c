/* Validation of the values of architecturally defined variables (UEFI 2.10, 3.1 and
 * 3.3): what a boot manager or an OS later parses must be well formed when written. */
#include "var_internal.h"
#include <ember/core/devpath.h>
#include <ember/lib/load_option.h>
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

#define LANG_CODES_MAX 256

bool var_check_device_path(const UINT8 *data, UINTN size)
{
	const EFI_DEVICE_PATH_PROTOCOL *path = (const EFI_DEVICE_PATH_PROTOCOL *)data;

	return size >= DP_END_SIZE && dp_is_valid(path, size) && dp_size(path) == size;
}

/* EFI_LOAD_OPTION (3.1.3): what lib/load_option.c accepts. */
bool var_check_load_option(const UINT8 *data, UINTN size)
{
	struct load_option option;

	return load_option_parse(data, size, &option);
}

/* EFI_KEY_OPTION (3.1.6): the fixed part, then exactly InputKeyCount keys. */
bool var_check_key_option(const UINT8 *data, UINTN size)
{
	EFI_KEY_OPTION key;

	if (size < sizeof(key))
		return false;
	mem_copy(&key, data, sizeof(key));
	return size == sizeof(key) + 4 * EFI_KEY_OPTION_INPUT_KEY_COUNT(key.KeyData);
}

/* The ASCII text of a language variable: bytes up to a terminator that may end the value;
 * 0 when anything follows it or a byte is not printable. */
static UINTN lang_text(const UINT8 *data, UINTN size)
{
	UINTN n = 0;

	while (n < size && data[n]) {
		if (data[n] < 0x21 || data[n] > 0x7e || data[n] == ';')
			return 0;
		n++;
	}
	return (n == size || n + 1 == size) ? n : 0;
}

/* Reads a firmware-set list of codes (PlatformLangCodes, LangCodes); 0 when absent. */
static UINTN read_codes(struct var_service *svc, const CHAR16 *name, char *buf, UINTN cap)
{
	struct var_ref ref;
	UINTN n;

	if (!var_lookup(svc, name, var_name_size(name), &efi_global_variable_guid, &ref))
		return 0;
	n = MIN((UINTN)ref.data_size, cap);
	if (EFI_ERROR(vstore_read_data(ref.store, ref.entry, 0, buf, (UINT32)n)))
		return 0;
	while (n && !buf[n - 1])
		n--;
	return n;
}

/* PlatformLang: an RFC 4646 tag listed in PlatformLangCodes (';'-separated). */
static bool platform_lang_ok(struct var_service *svc, const UINT8 *data, UINTN size)
{
	char codes[LANG_CODES_MAX];
	UINTN len = lang_text(data, size), n, start = 0;

	if (!len)
		return false;
	n = read_codes(svc, u"PlatformLangCodes", codes, sizeof(codes));
	if (!n)
		return true; /* nothing to compare with (the offline tool) */
	for (UINTN i = 0; i <= n; i++) {
		if (i < n && codes[i] != ';')
			continue;
		if (i - start == len && !mem_cmp(codes + start, data, len))
			return true;
		start = i + 1;
	}
	return false;
}

/* Lang: an ISO 639-2 code, one of the three-letter codes packed in LangCodes. */
static bool lang_ok(struct var_service *svc, const UINT8 *data, UINTN size)
{
	char codes[LANG_CODES_MAX];
	UINTN n;

	if (lang_text(data, size) != 3)
		return false;
	n = read_codes(svc, u"LangCodes", codes, sizeof(codes));
	if (!n)
		return true;
	for (UINTN i = 0; i + 3 <= n; i += 3)
		if (!mem_cmp(codes + i, data, 3))
			return true;
	return false;
}

static bool whole_value_ok(struct var_service *svc, enum var_check check, const UINT8 *data,
			   UINTN size)
{
	switch (check) {
	case VAR_CHECK_NONE:
		return true;
	case VAR_CHECK_UINT8:
		return size == 1;
	case VAR_CHECK_UINT16:
		return size == 2;
	case VAR_CHECK_UINT32:
		return size == 4;
	case VAR_CHECK_UINT64:
		return size == 8;
	case VAR_CHECK_UINT16_ARRAY:
		return size % 2 == 0;
	case VAR_CHECK_LOAD_OPTION:
		return var_check_load_option(data, size);
	case VAR_CHECK_KEY_OPTION:
		return var_check_key_option(data, size);
	case VAR_CHECK_DEVICE_PATH:
		return var_check_device_path(data, size);
	case VAR_CHECK_PLATFORM_LANG:
		return platform_lang_ok(svc, data, size);
	case VAR_CHECK_LANG:
		return lang_ok(svc, data, size);
	}
	return false;
}

bool var_check_value(struct var_service *svc, enum var_check check, const UINT8 *data, UINTN size,
		     UINTN old_size)
{
	if (!old_size)
		return whole_value_ok(svc, check, data, size);
	/* Appending: an array grows by whole elements, a load option by optional data (its
	 * structured part is unchanged); anything else would become malformed. */
	switch (check) {
	case VAR_CHECK_NONE:
	case VAR_CHECK_LOAD_OPTION:
		return true;
	case VAR_CHECK_UINT16_ARRAY:
		return size % 2 == 0;
	default:
		return false;
	}
}
