/* Words, numbers, GUIDs and hex dumps for the system commands. */
#include "sys.h"

const char *sys_status_text(EFI_STATUS status)
{
	static const struct sh_status_words texts[] = {
	    {EFI_SUCCESS, "done"},
	    {EFI_NOT_FOUND, "not found"},
	    {EFI_ACCESS_DENIED, "access denied"},
	    {EFI_WRITE_PROTECTED, "write-protected"},
	    {EFI_OUT_OF_RESOURCES, "out of resources (memory or storage)"},
	    {EFI_INVALID_PARAMETER, "invalid parameter"},
	    {EFI_UNSUPPORTED, "not supported"},
	    {EFI_DEVICE_ERROR, "device error"},
	    {EFI_SECURITY_VIOLATION, "refused by the security policy"},
	    {EFI_ALREADY_STARTED, "already started"},
	    {EFI_LOAD_ERROR, "not a loadable image"},
	};

	return sh_status_words(texts, ARRAY_SIZE(texts), status);
}

EFI_HANDLE sys_handle_arg(struct shell *sh, const char *cmd, const CHAR16 *text)
{
	UINT64 n;
	EFI_HANDLE h = NULL;

	if (sh_parse_u64(text, true, &n)) {
		h = sh_handle_lookup(sh, (UINTN)n);
		if (!h) { /* a handle made since the last listing */
			sh_handles_refresh(sh);
			h = sh_handle_lookup(sh, (UINTN)n);
		}
	}
	if (!h)
		sh_error(sh, "%s: '%ls' is not a handle number (dh lists them)\n", cmd, text);
	return h;
}

/* A registered name among the GUIDs of a list of protocols. */
static bool name_in(struct shell *sh, EFI_GUID **guids, UINTN n, const CHAR16 *text, EFI_GUID *out)
{
	for (UINTN i = 0; i < n; i++) {
		const CHAR16 *name = sh_guid_name(sh, guids[i]);
		if (name && sh_eq_nocase(name, text)) {
			*out = *guids[i];
			return true;
		}
	}
	return false;
}

struct var_name_search {
	struct shell *sh;
	const CHAR16 *text;
	EFI_GUID *out;
	bool found;
};

static bool var_guid_named(const CHAR16 *name, const EFI_GUID *guid, void *ctx)
{
	struct var_name_search *s = ctx;
	const CHAR16 *g = sh_guid_name(s->sh, guid);

	(void)name;
	if (g && sh_eq_nocase(g, s->text)) {
		*s->out = *guid;
		s->found = true;
	}
	return !s->found;
}

/* Names are looked up among the GUIDs in use: protocols on handles, configuration tables
 * and variables; sh_guid_name knows the names but maps only GUID to name. */
static bool guid_by_name(struct shell *sh, const CHAR16 *text, EFI_GUID *out)
{
	struct sys_handles all = {0};
	struct var_name_search s = {sh, text, out, false};
	bool found = false;

	for (UINTN i = 0; i < app_st->NumberOfTableEntries && !found; i++) {
		EFI_GUID *g = &app_st->ConfigurationTable[i].VendorGuid;
		found = name_in(sh, &g, 1, text, out);
	}
	if (!found && !EFI_ERROR(sys_handles_locate(sh, NULL, &all))) {
		for (UINTN i = 0; i < all.count && !found; i++) {
			EFI_GUID **guids = NULL;
			UINTN n = 0;
			if (EFI_ERROR(app_bs->ProtocolsPerHandle(all.h[i], &guids, &n)))
				continue;
			found = name_in(sh, guids, n, text, out);
			app_free(guids);
		}
		sys_handles_free(&all);
	}
	if (!found) {
		sys_var_each(var_guid_named, &s);
		found = s.found;
	}
	return found;
}

bool sys_parse_guid(struct shell *sh, const CHAR16 *text, EFI_GUID *out)
{
	char ascii[40];
	size_t len = str16_len(text);

	if (len == 38 && text[0] == '{' && text[37] == '}') {
		text++;
		len = 36;
	}
	if (len == 36) {
		for (size_t i = 0; i < len; i++)
			ascii[i] = text[i] < 0x80 ? (char)text[i] : '?';
		if (guid_from_str(out, ascii, len))
			return true;
	}
	return guid_by_name(sh, text, out);
}

const char *sys_hnum(struct shell *sh, EFI_HANDLE h, char buf[20])
{
	UINTN n = h ? sh_handle_index(sh, h) : 0;

	if (!n)
		return h ? "?" : "none";
	format_sn(buf, 20, "%X", (unsigned)n);
	return buf;
}

const char *sys_commas(char *buf, UINT64 value)
{
	char digits[24];
	int n = 0, out = 0;

	do {
		digits[n++] = (char)('0' + value % 10);
		value /= 10;
	} while (value);
	while (n) {
		buf[out++] = digits[--n];
		if (n && n % 3 == 0)
			buf[out++] = ',';
	}
	buf[out] = 0;
	return buf;
}

void sys_hexdump(struct shell *sh, UINTN indent, UINT64 base, const void *data, UINTN size)
{
	const UINT8 *p = data;

	for (UINTN off = 0; off < size && !sh_interrupted(sh); off += 16) {
		char line[96], chars[17];
		UINTN n = MIN((UINTN)16, size - off), pos = 0;

		for (UINTN i = 0; i < 16; i++) {
			if (i < n)
				pos += format_sn(line + pos, sizeof(line) - pos, "%02X%c",
						 p[off + i], i == 7 && n > 8 ? '-' : ' ');
			else
				pos += format_sn(line + pos, sizeof(line) - pos, "   ");
			chars[i] =
			    i < n
				? (p[off + i] >= 0x20 && p[off + i] < 0x7f ? (char)p[off + i] : '.')
				: 0;
		}
		chars[n] = 0;
		sh_print(sh, "%*s%08llX: %s *%s*\n", (int)indent, "",
			 (unsigned long long)(base + off), line, chars);
	}
}

const char *sys_var_attributes(char *buf, UINT32 attributes)
{
	static const struct {
		UINT32 bit;
		const char *name;
	} names[] = {
	    {EFI_VARIABLE_NON_VOLATILE, "NV"},
	    {EFI_VARIABLE_BOOTSERVICE_ACCESS, "BS"},
	    {EFI_VARIABLE_RUNTIME_ACCESS, "RT"},
	    {EFI_VARIABLE_HARDWARE_ERROR_RECORD, "HR"},
	    {EFI_VARIABLE_AUTHENTICATED_WRITE_ACCESS, "AW"},
	    {EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS, "AT"},
	    {EFI_VARIABLE_ENHANCED_AUTHENTICATED_ACCESS, "EA"},
	};
	UINTN pos = 0;

	buf[0] = 0;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (attributes & names[i].bit)
			pos +=
			    format_sn(buf + pos, 48 - pos, "%s%s", pos ? "+" : "", names[i].name);
	if (!pos)
		format_sn(buf, 48, "none");
	return buf;
}
