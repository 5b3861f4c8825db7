/* Device path to text (UEFI 2.10, 10.6.2): the path walk, the generic node form, and the
 * output helpers shared by the node printers in to_text_*.c. */
#include <stdarg.h>
#include "devpath_internal.h"
#include <ember/core/core.h>
#include <ember/lib/format.h>
#include <ember/lib/str.h>

static void out_sink(void *ctx, const char *s, size_t n)
{
	struct dp_out *o = ctx;
	CHAR16 wide[32];

	while (n) {
		UINTN k = MIN(n, ARRAY_SIZE(wide));

		for (UINTN i = 0; i < k; i++)
			wide[i] = (UINT8)s[i];
		dp_buf_put(&o->buf, wide, k * sizeof(CHAR16));
		s += k;
		n -= k;
	}
}

void dp_out_printf(struct dp_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	format_v(out_sink, o, fmt, ap);
	va_end(ap);
}

void dp_out_ascii(struct dp_out *o, const char *s)
{
	out_sink(o, s, str8_len(s));
}

void dp_out_char16(struct dp_out *o, const CHAR16 *s, UINTN n)
{
	dp_buf_put(&o->buf, s, n * sizeof(CHAR16));
}

void dp_out_bytes(struct dp_out *o, const UINT8 *s, UINTN n)
{
	out_sink(o, (const char *)s, n);
}

void dp_out_hex(struct dp_out *o, const UINT8 *p, UINTN n)
{
	static const char digits[] = "0123456789ABCDEF";

	for (UINTN i = 0; i < n; i++) {
		char pair[2] = {digits[p[i] >> 4], digits[p[i] & 15]};

		out_sink(o, pair, 2);
	}
}

void dp_out_guid(struct dp_out *o, const UINT8 *p)
{
	EFI_GUID guid;
	char text[37];

	dp_rdguid(&guid, p);
	guid_to_str(text, &guid);
	dp_out_ascii(o, text);
}

void dp_out_be8(struct dp_out *o, const UINT8 *p)
{
	dp_out_ascii(o, "0x");
	dp_out_hex(o, p, 8);
}

void dp_out_eisa(struct dp_out *o, UINT32 id)
{
	unsigned c1 = (id >> 10) & 31, c2 = (id >> 5) & 31, c3 = id & 31;

	if (id == 0)
		dp_out_ascii(o, "0");
	else if ((id & 0x8000) || !c1 || c1 > 26 || !c2 || c2 > 26 || !c3 || c3 > 26)
		dp_out_printf(o, "0x%08X", (unsigned)id);
	else
		dp_out_printf(o, "%c%c%c%04X", 'A' + c1 - 1, 'A' + c2 - 1, 'A' + c3 - 1,
			      (unsigned)(id >> 16));
}

void dp_out_ipv4(struct dp_out *o, const UINT8 *a, UINT16 port)
{
	dp_out_printf(o, "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
	if (port)
		dp_out_printf(o, ":%u", port);
}

void dp_out_ipv6(struct dp_out *o, const UINT8 *a, UINT16 port)
{
	/* RFC 4291's full form; a port needs the bracketed form of 10.6.1. */
	if (port)
		dp_out_ascii(o, "[");
	for (int i = 0; i < 16; i += 2) {
		if (i)
			dp_out_ascii(o, ":");
		dp_out_hex(o, a + i, 2);
	}
	if (port)
		dp_out_printf(o, "]:%u", port);
}

static UINT16 text_char(const UINT8 *s, UINTN i, UINTN width)
{
	return width == 2 ? dp_rd16(s + 2 * i) : s[i];
}

bool dp_text_raw_safe(const UINT8 *s, UINTN count, UINTN width)
{
	UINTN depth = 0;

	for (UINTN i = 0; i < count; i++) {
		UINT16 c = text_char(s, i, width);

		if (c == 0)
			return false;
		if (c == '(')
			depth++;
		else if (c == ')' && depth-- == 0)
			return false;
	}
	return depth == 0;
}

bool dp_text_quoted_safe(const UINT8 *s, UINTN count, UINTN width)
{
	for (UINTN i = 0; i < count; i++)
		if (text_char(s, i, width) == '"')
			return false;
	return dp_text_raw_safe(s, count, width);
}

bool dp_text_arg_safe(const UINT8 *s, UINTN count, UINTN width)
{
	for (UINTN i = 0; i < count; i++) {
		UINT16 c = text_char(s, i, width);

		if (c == ',' || c == '=' || c == '"')
			return false;
	}
	/* Parameters are trimmed on input, so outer spaces would be lost. */
	if (count && (text_char(s, 0, width) == ' ' || text_char(s, count - 1, width) == ' '))
		return false;
	return dp_text_raw_safe(s, count, width);
}

bool dp_cstr_exact(const UINT8 *s, UINTN n)
{
	if (n == 0 || s[n - 1] != 0)
		return false;
	for (UINTN i = 0; i + 1 < n; i++)
		if (s[i] == 0)
			return false;
	return true;
}

bool dp_print_vendor(struct dp_out *o, const UINT8 *n, UINTN len, const char *kind)
{
	if (len < sizeof(VENDOR_DEVICE_PATH))
		return false;
	dp_out_printf(o, "Ven%s(", kind);
	dp_out_guid(o, n + offsetof(VENDOR_DEVICE_PATH, Guid));
	if (len > sizeof(VENDOR_DEVICE_PATH)) {
		dp_out_ascii(o, ",");
		dp_out_hex(o, n + sizeof(VENDOR_DEVICE_PATH), len - sizeof(VENDOR_DEVICE_PATH));
	}
	dp_out_ascii(o, ")");
	return true;
}

/* 10.6.1: Path(type,subtype,data), or the type's own generic name. */
static void print_generic(struct dp_out *o, const UINT8 *n, UINTN len)
{
	static const char *const names[] = {
	    [HARDWARE_DEVICE_PATH] = "HardwarePath", [ACPI_DEVICE_PATH] = "AcpiPath",
	    [MESSAGING_DEVICE_PATH] = "Msg",	     [MEDIA_DEVICE_PATH] = "MediaPath",
	    [BBS_DEVICE_PATH] = "BbsPath",
	};

	if (n[0] < ARRAY_SIZE(names) && names[n[0]])
		dp_out_printf(o, "%s(%u", names[n[0]], n[1]);
	else
		dp_out_printf(o, "Path(%u,%u", n[0], n[1]);
	if (len > sizeof(EFI_DEVICE_PATH_PROTOCOL)) {
		dp_out_ascii(o, ",");
		dp_out_hex(o, n + sizeof(EFI_DEVICE_PATH_PROTOCOL),
			   len - sizeof(EFI_DEVICE_PATH_PROTOCOL));
	}
	dp_out_ascii(o, ")");
}

static dp_printer find_printer(UINT8 type, UINT8 subtype)
{
	static const struct dp_printer_entry *const tables[] = {dp_printers_hw, dp_printers_msg,
								dp_printers_net, dp_printers_media};

	for (UINTN t = 0; t < ARRAY_SIZE(tables); t++)
		for (const struct dp_printer_entry *e = tables[t]; e->print; e++)
			if (e->type == type && e->subtype == subtype)
				return e->print;
	return NULL;
}

static void print_node(struct dp_out *o, const EFI_DEVICE_PATH_PROTOCOL *node)
{
	const UINT8 *n = (const UINT8 *)node;
	UINTN len = dp_node_length(node), mark = o->buf.size;
	dp_printer print = find_printer(node->Type, node->SubType);

	if (print && print(o, n, len))
		return;
	dp_buf_truncate(&o->buf, mark);
	print_generic(o, n, len);
}

/* Terminates the text and hands it over. */
static CHAR16 *out_finish(struct dp_out *o)
{
	CHAR16 nul = 0;

	dp_buf_put(&o->buf, &nul, sizeof(nul));
	return dp_buf_take(&o->buf);
}

CHAR16 *dp_node_to_text(const EFI_DEVICE_PATH_PROTOCOL *node, bool display_only,
			bool allow_shortcuts)
{
	struct dp_out o = {.display_only = display_only, .shortcuts = allow_shortcuts};

	if (!node || dp_node_length(node) < sizeof(EFI_DEVICE_PATH_PROTOCOL))
		return NULL;
	if (dp_is_end_instance(node) && !dp_is_end(node))
		dp_out_ascii(&o, ",");
	else
		print_node(&o, node);
	return out_finish(&o);
}

CHAR16 *dp_to_text(const EFI_DEVICE_PATH_PROTOCOL *path, bool display_only, bool allow_shortcuts)
{
	struct dp_out o = {.display_only = display_only, .shortcuts = allow_shortcuts};
	bool separate = false;

	if (!path)
		return NULL;
	for (const EFI_DEVICE_PATH_PROTOCOL *node = path; !dp_is_end(node); node = dp_next(node)) {
		if (dp_node_length(node) < sizeof(EFI_DEVICE_PATH_PROTOCOL)) {
			dp_buf_free(&o.buf);
			return NULL;
		}
		if (dp_is_end_instance(node)) {
			dp_out_ascii(&o, ",");
			separate = false;
			continue;
		}
		if (separate)
			dp_out_ascii(&o, "/");
		print_node(&o, node);
		separate = true;
	}
	return out_finish(&o);
}
