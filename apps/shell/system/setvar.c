/* setvar: shows, sets or deletes one UEFI variable (UEFI Shell 2.2, setvar). The data
 * is one or more "=data" words, concatenated:
 *   =0x1234        a number, little-endian, 1, 2, 4 or 8 bytes by its number of digits
 *   =H0A0B0C / =0A0B0C   bytes (an even number of hex digits)
 *   =S"text"       ASCII, no terminator (also without S when the text is not hex)
 *   =L"text"       UCS-2, no terminator
 *   =P"path" / =--path   a device path from its text
 * The shell's parser removes the quotes (keeping what they enclose in one word), so the
 * text arrives right after S, L or P; quotes kept with ^" are dropped here too. */
#include "sys.h"
#include "../../lib/devpath.h"
#include <efi/protocol/device_path_from_text.h>
#include <ember/lib/guids.h>

static const EFI_GUID global_guid = EFI_GLOBAL_VARIABLE;

struct bytes {
	UINT8 *p;
	UINTN len, cap;
	bool failed;
};

static void put(struct bytes *b, const void *data, UINTN n)
{
	if (b->failed)
		return;
	if (b->len + n > b->cap) {
		UINTN cap = MAX(b->cap * 2, b->len + n + 64);
		UINT8 *more = app_alloc(cap);
		if (!more) {
			b->failed = true;
			return;
		}
		if (b->len)
			mem_copy(more, b->p, b->len);
		app_free(b->p);
		b->p = more;
		b->cap = cap;
	}
	mem_copy(b->p + b->len, data, n);
	b->len += n;
}

static int hex_digit(CHAR16 c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static bool all_hex(const CHAR16 *s)
{
	for (; *s; s++)
		if (hex_digit(*s) < 0)
			return false;
	return true;
}

/* The text of a string form without the quotes the user may have kept with ^". */
static UINTN unquote(const CHAR16 **s)
{
	UINTN n = str16_len(*s);

	if (n >= 2 && (*s)[0] == '"' && (*s)[n - 1] == '"') {
		(*s)++;
		n -= 2;
	}
	return n;
}

static bool put_number(struct bytes *b, const CHAR16 *digits)
{
	UINTN n = str16_len(digits), size;
	UINT64 v = 0;

	if (!n || n > 16 || !all_hex(digits))
		return false;
	for (UINTN i = 0; i < n; i++)
		v = v << 4 | (UINT64)hex_digit(digits[i]);
	size = n <= 2 ? 1 : n <= 4 ? 2 : n <= 8 ? 4 : 8;
	put(b, &v, size); /* x86 is little-endian, as UEFI is */
	return true;
}

static bool put_hex_bytes(struct bytes *b, const CHAR16 *digits)
{
	UINTN n = str16_len(digits);

	if (n % 2 || !all_hex(digits))
		return false;
	for (UINTN i = 0; i < n; i += 2) {
		UINT8 byte = (UINT8)(hex_digit(digits[i]) << 4 | hex_digit(digits[i + 1]));
		put(b, &byte, 1);
	}
	return true;
}

static bool put_ascii(struct bytes *b, const CHAR16 *text)
{
	UINTN n = unquote(&text);

	for (UINTN i = 0; i < n; i++) {
		UINT8 c = (UINT8)text[i];
		if (text[i] > 0x7f)
			return false;
		put(b, &c, 1);
	}
	return true;
}

static bool put_ucs2(struct bytes *b, const CHAR16 *text)
{
	UINTN n = unquote(&text);

	put(b, text, n * sizeof(CHAR16));
	return true;
}

static bool put_device_path(struct shell *sh, struct bytes *b, const CHAR16 *text)
{
	EFI_DEVICE_PATH_FROM_TEXT_PROTOCOL *from;
	EFI_DEVICE_PATH_PROTOCOL *path;
	CHAR16 *copy;
	UINTN n = unquote(&text);

	if (EFI_ERROR(app_bs->LocateProtocol((EFI_GUID *)&efi_device_path_from_text_protocol_guid,
					     NULL, (void **)&from))) {
		sh_error(sh, "setvar: the firmware cannot read device path text\n");
		return false;
	}
	copy = sh_strndup16(text, n);
	path = copy ? from->ConvertTextToDevicePath(copy) : NULL;
	app_free(copy);
	if (!path)
		return false;
	put(b, path, dp_size(path));
	app_free(path);
	return true;
}

/* Appends the bytes of one "=data" word (after its '='). */
static bool parse_data(struct shell *sh, struct bytes *b, const CHAR16 *w)
{
	if (w[0] == '0' && (w[1] == 'x' || w[1] == 'X'))
		return put_number(b, w + 2);
	if (w[0] == 'H' && all_hex(w + 1))
		return put_hex_bytes(b, w + 1);
	if (w[0] == 'S')
		return put_ascii(b, w + 1);
	if (w[0] == 'L')
		return put_ucs2(b, w + 1);
	if (w[0] == 'P')
		return put_device_path(sh, b, w + 1);
	if (w[0] == '-' && w[1] == '-')
		return put_device_path(sh, b, w + 2);
	if (all_hex(w) && str16_len(w) % 2 == 0)
		return put_hex_bytes(b, w);
	return put_ascii(b, w);
}

static EFI_STATUS show(struct shell *sh, const CHAR16 *name, const EFI_GUID *guid)
{
	void *data;
	UINTN size;
	UINT32 attributes;
	char attrs[48];
	EFI_STATUS status = sys_var_read(name, guid, &attributes, &data, &size);

	if (EFI_ERROR(status)) {
		sh_error(sh, "setvar: cannot read %pG:%ls: %s\n", guid, name,
			 sys_status_text(status));
		return status;
	}
	sh_print(sh, "%pG - %ls - %04X Bytes (%s)\n", guid, name, (unsigned)size,
		 sys_var_attributes(attrs, attributes));
	for (UINTN i = 0; i < size; i++)
		sh_print(sh, "%02X%s", ((UINT8 *)data)[i], i + 1 < size ? " " : "");
	sh_print(sh, "\n");
	app_free(data);
	return EFI_SUCCESS;
}

/* The attributes: an existing variable keeps its own; a new one gets the options'. */
static UINT32 attributes_for(const struct sh_args *a, const CHAR16 *name, const EFI_GUID *guid)
{
	UINT32 attributes = 0;
	UINTN size = 0;
	EFI_STATUS status =
	    app_rt->GetVariable((CHAR16 *)name, (EFI_GUID *)guid, &attributes, &size, NULL);

	if (status == EFI_BUFFER_TOO_SMALL || status == EFI_SUCCESS)
		return attributes;
	attributes = 0;
	if (sh_args_has(a, "-bs"))
		attributes |= EFI_VARIABLE_BOOTSERVICE_ACCESS;
	if (sh_args_has(a, "-rt"))
		attributes |= EFI_VARIABLE_RUNTIME_ACCESS | EFI_VARIABLE_BOOTSERVICE_ACCESS;
	if (sh_args_has(a, "-nv"))
		attributes |= EFI_VARIABLE_NON_VOLATILE;
	return attributes ? attributes : EFI_VARIABLE_BOOTSERVICE_ACCESS;
}

static EFI_STATUS set(struct shell *sh, const struct sh_args *a, const CHAR16 *name,
		      const EFI_GUID *guid)
{
	struct bytes b = {0};
	UINT32 attributes = attributes_for(a, name, guid);
	EFI_STATUS status;

	for (UINTN i = 1; i < a->count; i++) {
		const CHAR16 *w = a->pos[i];
		if (w[0] != '=' || (w[1] && !parse_data(sh, &b, w + 1))) {
			sh_error(sh, "setvar: cannot read the data '%ls' (see help setvar)\n", w);
			app_free(b.p);
			return EFI_INVALID_PARAMETER;
		}
	}
	if (b.failed) {
		app_free(b.p);
		return EFI_OUT_OF_RESOURCES;
	}
	if (sh_args_has(a, "-append"))
		attributes |= EFI_VARIABLE_APPEND_WRITE;
	/* Nothing after '=' deletes (size 0), unless appending nothing. */
	status = app_rt->SetVariable((CHAR16 *)name, (EFI_GUID *)guid, attributes, b.len, b.p);
	app_free(b.p);
	if (EFI_ERROR(status))
		sh_error(sh, "setvar: cannot %s %pG:%ls: %s\n", b.len ? "set" : "delete", guid,
			 name, sys_status_text(status));
	return status;
}

static EFI_STATUS cmd_setvar(struct shell *sh, UINTN argc, CHAR16 **argv)
{
	static const struct sh_opt opts[] = {{"-guid", SH_OPT_VALUE},  {"-bs", SH_OPT_FLAG},
					     {"-rt", SH_OPT_FLAG},     {"-nv", SH_OPT_FLAG},
					     {"-append", SH_OPT_FLAG}, {NULL}};
	struct sh_args a;
	EFI_GUID guid = global_guid;
	const CHAR16 *text;
	EFI_STATUS status = sh_args_parse(sh, argc, argv, opts, &a);

	if (EFI_ERROR(status))
		return status;
	if (!a.count || a.pos[0][0] == '=') {
		sh_error(sh, "setvar: name the variable first\n");
		return EFI_INVALID_PARAMETER;
	}
	if ((text = sh_args_value(&a, "-guid")) && !sys_parse_guid(sh, text, &guid)) {
		sh_error(sh, "setvar: '%ls' is not a GUID\n", text);
		return EFI_INVALID_PARAMETER;
	}
	if (a.count == 1)
		return show(sh, a.pos[0], &guid);
	return set(sh, &a, a.pos[0], &guid);
}

SH_COMMAND(setvar, "setvar", "Shows, sets or deletes a UEFI variable",
	   "setvar name [-guid GUID] [-bs] [-rt] [-nv] [-append] [=data...]\n"
	   "  Without '=', shows the variable's GUID, name, size, attributes and bytes.\n"
	   "  With '=' and nothing after it, deletes the variable. With =data, sets it to\n"
	   "  the data; several =data words are joined:\n"
	   "    =0x1F         a number: 1, 2, 4 or 8 bytes (by its digits), little-endian\n"
	   "    =0A0B0C       bytes in hex (also =H0A0B0C)\n"
	   "    =S\"text\"      ASCII text without a terminator (also =\"text\" when the text\n"
	   "                  is not all hex digits)\n"
	   "    =L\"text\"      UCS-2 text without a terminator\n"
	   "    =P\"path\"      a device path from its text (also =--path)\n"
	   "  -guid GUID  the variable's GUID (text or a name); the global one if absent\n"
	   "  -bs -rt -nv the attributes of a new variable: boot services, runtime (and\n"
	   "              boot services), non-volatile; an existing variable keeps its own\n"
	   "  -append     appends the data (EFI_VARIABLE_APPEND_WRITE)\n"
	   "  Examples:\n"
	   "    setvar Timeout\n"
	   "    setvar MyVar -guid 7E57A11E-5A1E-4C6F-9A2B-3C4D5E6F7081 -bs -nv =0x2A\n"
	   "    setvar MyText -nv -bs =L\"hello world\" =0000\n"
	   "    setvar MyVar =\n",
	   cmd_setvar);
