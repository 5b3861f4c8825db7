/* The gnu-efi functions of tests/aarch64/gnu-efi/efilib.h, over Ember's library (lib/). */
#include <stdarg.h>
#include <ember/lib/format.h>
#include <ember/lib/str.h>
#include "efilib.h"
#include "efishell.h"

#define LINE_MAX 1024

EFI_SYSTEM_TABLE *ST;
EFI_BOOT_SERVICES *BS;
EFI_RUNTIME_SERVICES *RT;
EFI_GUID LoadedImageProtocol = EFI_LOADED_IMAGE_PROTOCOL_GUID;
EFI_GUID ShellProtocolGuid = EFI_SHELL_PROTOCOL_GUID;
EFI_GUID ShellParametersProtocolGuid = EFI_SHELL_PARAMETERS_PROTOCOL_GUID;

void InitializeLib(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	ST = systab;
	BS = systab->BootServices;
	RT = systab->RuntimeServices;
}

typedef UINT64(EFIAPI *call0)(void);
typedef UINT64(EFIAPI *call4)(UINT64, UINT64, UINT64, UINT64);
typedef UINT64(EFIAPI *call8)(UINT64, UINT64, UINT64, UINT64, UINT64, UINT64, UINT64, UINT64);

/* Up to eight arguments, all in registers on AArch64, where extra ones are ignored. */
UINT64 uefi_call_wrapper(void *fn, unsigned long n, ...)
{
	UINT64 a[8] = {0};
	va_list ap;

	va_start(ap, n);
	for (unsigned long i = 0; i < n && i < 8; i++)
		a[i] = va_arg(ap, UINT64);
	va_end(ap);
	if (n == 0)
		return ((call0)fn)();
	if (n <= 4)
		return ((call4)fn)(a[0], a[1], a[2], a[3]);
	return ((call8)fn)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
}

/* How gnu-efi's %r writes a status (its own words, not the spec's names). */
static const char *status_text(EFI_STATUS status)
{
	static const struct {
		EFI_STATUS status;
		const char *text;
	} texts[] = {
	    {EFI_SUCCESS, "Success"},
	    {EFI_LOAD_ERROR, "Load Error"},
	    {EFI_INVALID_PARAMETER, "Invalid Parameter"},
	    {EFI_UNSUPPORTED, "Unsupported"},
	    {EFI_BUFFER_TOO_SMALL, "Buffer Too Small"},
	    {EFI_NOT_READY, "Not Ready"},
	    {EFI_DEVICE_ERROR, "Device Error"},
	    {EFI_OUT_OF_RESOURCES, "Out of Resources"},
	    {EFI_NOT_FOUND, "Not Found"},
	    {EFI_ACCESS_DENIED, "Access Denied"},
	    {EFI_ABORTED, "Aborted"},
	};

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (texts[i].status == status)
			return texts[i].text;
	return efi_status_name(status);
}

struct out {
	char *text;
	size_t size, len;
};

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (o->len < o->size)
		o->len += format_vsn(o->text + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	if (o->len >= o->size)
		o->len = o->size - 1;
}

/* gnu-efi's conversions, each handed to Ember's formatter with its argument's real type:
 * %s a CHAR16 string, %a a CHAR8 one, %r a status in gnu-efi's words, the rest as C's. */
static void format_gnu_efi(struct out *o, const CHAR16 *fmt, va_list ap)
{
	char spec[16];

	for (; *fmt; fmt++) {
		size_t n = 0;
		bool wide = false;

		if (*fmt != '%') {
			put(o, "%c", (int)*fmt);
			continue;
		}
		spec[n++] = '%';
		while (n < 10 && (fmt[1] == '-' || (fmt[1] >= '0' && fmt[1] <= '9')))
			spec[n++] = (char)*++fmt;
		if (fmt[1] == 'l')
			wide = true, fmt++;
		if (!fmt[1])
			break;
		switch (*++fmt) {
		case 's':
			spec[n++] = 'l', spec[n++] = 's', spec[n] = 0;
			put(o, spec, va_arg(ap, const CHAR16 *));
			break;
		case 'a':
			spec[n++] = 's', spec[n] = 0;
			put(o, spec, va_arg(ap, const char *));
			break;
		case 'r':
			spec[n++] = 's', spec[n] = 0;
			put(o, spec, status_text(va_arg(ap, EFI_STATUS)));
			break;
		case 'd':
		case 'x':
		case 'X':
		case 'u':
			spec[n++] = 'l', spec[n++] = 'l', spec[n++] = (char)*fmt, spec[n] = 0;
			if (*fmt == 'd')
				put(o, spec,
				    wide ? va_arg(ap, long long) : (long long)va_arg(ap, int));
			else
				put(o, spec,
				    wide ? va_arg(ap, unsigned long long)
					 : (unsigned long long)va_arg(ap, unsigned));
			break;
		case 'c':
			put(o, "%c", va_arg(ap, int));
			break;
		default:
			put(o, "%c", (int)*fmt);
		}
	}
}

static size_t format_utf16(CHAR16 *out, size_t units, const CHAR16 *fmt, va_list ap)
{
	char text[LINE_MAX];
	struct out o = {text, sizeof(text), 0};

	text[0] = 0;
	format_gnu_efi(&o, fmt, ap);
	return utf8_to_ucs2(out, units, text, o.len);
}

UINTN Print(const CHAR16 *fmt, ...)
{
	CHAR16 text[LINE_MAX], line[2 * LINE_MAX + 1];
	size_t units, n = 0;
	va_list ap;

	va_start(ap, fmt);
	units = format_utf16(text, LINE_MAX, fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < units; i++) {
		if (text[i] == '\n')
			line[n++] = '\r';
		line[n++] = text[i];
	}
	line[n] = 0;
	ST->ConOut->OutputString(ST->ConOut, line);
	return units;
}

UINTN SPrint(CHAR16 *buffer, UINTN size, const CHAR16 *fmt, ...)
{
	size_t units;
	va_list ap;

	va_start(ap, fmt);
	units = format_utf16(buffer, size / sizeof(CHAR16), fmt, ap);
	va_end(ap);
	return units;
}

INTN StrCmp(const CHAR16 *a, const CHAR16 *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (INTN)*a - (INTN)*b;
}

UINTN StrLen(const CHAR16 *s)
{
	UINTN n = 0;

	while (s[n])
		n++;
	return n;
}

VOID StrCat(CHAR16 *dest, const CHAR16 *src)
{
	dest += StrLen(dest);
	while ((*dest++ = *src++))
		;
}

VOID CopyMem(VOID *dest, const VOID *src, UINTN size)
{
	mem_copy(dest, src, size);
}
