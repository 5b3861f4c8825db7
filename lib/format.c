/* A small printf engine for code without libc. */
#include <ember/lib/format.h>
#include <ember/lib/str.h>
#include <efi/status.h>

struct spec {
	bool left, zero, plus, space, alt, pointer;
	int width, precision; /* precision < 0: none */
	int length;	      /* 0 int, 1 long, 2 long long, -1 short, -2 char, 3 size_t */
};

struct out {
	format_sink sink;
	void *ctx;
	size_t total;
};

static void emit(struct out *o, const char *s, size_t n)
{
	if (n) {
		o->sink(o->ctx, s, n);
		o->total += n;
	}
}

static void emit_pad(struct out *o, char c, int n)
{
	char buf[16];

	mem_set(buf, c, sizeof(buf));
	while (n > 0) {
		int k = n > 16 ? 16 : n;
		emit(o, buf, (size_t)k);
		n -= k;
	}
}

/* Emits a field body with width padding; prefix (sign, 0x) goes before zero padding. */
static void emit_field(struct out *o, const struct spec *sp, const char *prefix, size_t plen,
		       const char *body, size_t blen, int zeros)
{
	int len = (int)(plen + blen) + zeros;
	int pad = sp->width > len ? sp->width - len : 0;

	if (!sp->left)
		emit_pad(o, ' ', pad);
	emit(o, prefix, plen);
	emit_pad(o, '0', zeros);
	emit(o, body, blen);
	if (sp->left)
		emit_pad(o, ' ', pad);
}

static void format_number(struct out *o, struct spec *sp, uint64_t v, bool negative, int base,
			  bool upper)
{
	/* One array indexed by case, not a choice of two pointers: the compiler may turn such
	 * a choice into a table of absolute addresses, which runtime code in virtual mode (the
	 * log of ResetSystem) cannot follow. */
	static const char both[] = "0123456789abcdef0123456789ABCDEF";
	const char *digits = both + (upper ? 16 : 0);
	char buf[24], prefix[3];
	size_t n = 0, plen = 0;
	int zeros = 0;
	bool nonzero = v != 0;

	do {
		buf[sizeof(buf) - 1 - n++] = digits[v % (unsigned)base];
		v /= (unsigned)base;
	} while (v);
	if (sp->precision == 0 && n == 1 && buf[sizeof(buf) - 1] == '0')
		n = 0;
	if (negative)
		prefix[plen++] = '-';
	else if (sp->plus)
		prefix[plen++] = '+';
	else if (sp->space)
		prefix[plen++] = ' ';
	/* '#' (C11 7.21.6.1): 0x before a nonzero hexadecimal value (%p: any); for octal, a
	 * leading zero unless the digits or the precision already start with one. */
	if (sp->alt && base == 16 && (nonzero || sp->pointer)) {
		prefix[plen++] = '0';
		prefix[plen++] = upper ? 'X' : 'x';
	}
	if (sp->alt && base == 8 && sp->precision <= (int)n && !(n && buf[sizeof(buf) - n] == '0'))
		prefix[plen++] = '0';
	if (sp->precision > (int)n)
		zeros = sp->precision - (int)n;
	else if (sp->zero && !sp->left && sp->precision < 0 && sp->width > (int)(n + plen))
		zeros = sp->width - (int)(n + plen);
	emit_field(o, sp, prefix, plen, buf + sizeof(buf) - n, n, zeros);
}

static void format_string(struct out *o, const struct spec *sp, const char *s)
{
	size_t n = 0;

	if (!s)
		s = "(null)";
	while (s[n] && (sp->precision < 0 || (int)n < sp->precision))
		n++;
	emit_field(o, sp, "", 0, s, n, 0);
}

static void format_string16(struct out *o, const struct spec *sp, const CHAR16 *s)
{
	char buf[64];
	size_t n = 0, limit;

	if (!s) {
		format_string(o, sp, "(null)");
		return;
	}
	limit = sp->precision < 0 ? SIZE_MAX : (size_t)sp->precision;
	while (s[n] && n < limit)
		n++;
	struct spec plain = *sp;
	plain.precision = -1;
	if (!sp->left && sp->width > (int)n)
		emit_pad(o, ' ', sp->width - (int)n);
	for (size_t i = 0; i < n;) {
		size_t chunk = MIN(n - i, (size_t)16);
		size_t len = ucs2_to_utf8(buf, sizeof(buf), s + i, chunk);
		emit(o, buf, len);
		i += chunk;
	}
	if (sp->left && sp->width > (int)n)
		emit_pad(o, ' ', sp->width - (int)n);
}

static uint64_t fetch_unsigned(va_list *ap, int length)
{
	switch (length) {
	case -2:
		return (unsigned char)va_arg(*ap, unsigned int);
	case -1:
		return (unsigned short)va_arg(*ap, unsigned int);
	case 0:
		return va_arg(*ap, unsigned int);
	case 1:
		return va_arg(*ap, unsigned long);
	case 3:
		return va_arg(*ap, size_t);
	default:
		return va_arg(*ap, unsigned long long);
	}
}

static int64_t fetch_signed(va_list *ap, int length)
{
	switch (length) {
	case -2:
		return (signed char)va_arg(*ap, int);
	case -1:
		return (short)va_arg(*ap, int);
	case 0:
		return va_arg(*ap, int);
	case 1:
		return va_arg(*ap, long);
	case 3:
		return (int64_t)va_arg(*ap, size_t);
	default:
		return va_arg(*ap, long long);
	}
}

static const char *parse_spec(const char *f, struct spec *sp, va_list *ap)
{
	*sp = (struct spec){.precision = -1};
	for (;; f++) {
		if (*f == '-')
			sp->left = true;
		else if (*f == '0')
			sp->zero = true;
		else if (*f == '+')
			sp->plus = true;
		else if (*f == ' ')
			sp->space = true;
		else if (*f == '#')
			sp->alt = true;
		else
			break;
	}
	if (*f == '*') {
		sp->width = va_arg(*ap, int);
		if (sp->width < 0)
			sp->left = true, sp->width = -sp->width;
		f++;
	} else {
		while (*f >= '0' && *f <= '9')
			sp->width = sp->width * 10 + (*f++ - '0');
	}
	if (*f == '.') {
		f++;
		sp->precision = 0;
		if (*f == '*') {
			sp->precision = va_arg(*ap, int);
			f++;
		} else {
			while (*f >= '0' && *f <= '9')
				sp->precision = sp->precision * 10 + (*f++ - '0');
		}
	}
	for (;; f++) {
		if (*f == 'l')
			sp->length = sp->length == 1 ? 2 : 1;
		else if (*f == 'h')
			sp->length = sp->length == -1 ? -2 : -1;
		else if (*f == 'z' || *f == 't')
			sp->length = 3;
		else if (*f == 'j')
			sp->length = 2;
		else
			break;
	}
	return f;
}

size_t format_v(format_sink sink, void *ctx, const char *fmt, va_list ap_in)
{
	struct out o = {sink, ctx, 0};
	va_list ap;

	va_copy(ap, ap_in);
	while (*fmt) {
		const char *start = fmt;
		struct spec sp;

		while (*fmt && *fmt != '%')
			fmt++;
		emit(&o, start, (size_t)(fmt - start));
		if (!*fmt)
			break;
		fmt = parse_spec(fmt + 1, &sp, &ap);
		/* '+' and ' ' concern signed conversions only (C11 7.21.6.1). */
		if (*fmt != 'd' && *fmt != 'i')
			sp.plus = sp.space = false;
		switch (*fmt) {
		case 'd':
		case 'i': {
			int64_t v = fetch_signed(&ap, sp.length);
			format_number(&o, &sp, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0, 10,
				      false);
			break;
		}
		case 'u':
			format_number(&o, &sp, fetch_unsigned(&ap, sp.length), false, 10, false);
			break;
		case 'x':
		case 'X':
			format_number(&o, &sp, fetch_unsigned(&ap, sp.length), false, 16,
				      *fmt == 'X');
			break;
		case 'o':
			format_number(&o, &sp, fetch_unsigned(&ap, sp.length), false, 8, false);
			break;
		case 'c': {
			char c = (char)va_arg(ap, int);
			emit_field(&o, &sp, "", 0, &c, 1, 0);
			break;
		}
		case 's':
			if (sp.length == 1)
				format_string16(&o, &sp, va_arg(ap, const CHAR16 *));
			else
				format_string(&o, &sp, va_arg(ap, const char *));
			break;
		case 'r': {
			EFI_STATUS status = va_arg(ap, EFI_STATUS);
			const char *name = efi_status_name(status);
			if (name) {
				format_string(&o, &sp, name);
			} else {
				char buf[32];
				format_sn(buf, sizeof(buf), "status 0x%llx",
					  (unsigned long long)status);
				format_string(&o, &sp, buf);
			}
			break;
		}
		case 'p':
			if (fmt[1] == 'G') {
				char buf[37];
				const EFI_GUID *g = va_arg(ap, const EFI_GUID *);
				fmt++;
				if (g) {
					guid_to_str(buf, g);
					format_string(&o, &sp, buf);
				} else {
					format_string(&o, &sp, "(null)");
				}
			} else {
				sp.alt = sp.pointer = true;
				format_number(&o, &sp, (uint64_t)(uintptr_t)va_arg(ap, void *),
					      false, 16, false);
			}
			break;
		case '%':
			emit(&o, "%", 1);
			break;
		case 0:
			fmt--;
			break;
		default:
			emit(&o, fmt - 1, 2);
			break;
		}
		fmt++;
	}
	va_end(ap);
	return o.total;
}

struct buffer_sink {
	char *buf;
	size_t size, used;
};

static void buffer_write(void *ctx, const char *s, size_t n)
{
	struct buffer_sink *b = ctx;

	if (b->used + 1 < b->size) {
		size_t room = b->size - 1 - b->used;
		mem_copy(b->buf + b->used, s, MIN(room, n));
	}
	b->used += n;
}

size_t format_vsn(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct buffer_sink b = {buf, size, 0};
	size_t n = format_v(buffer_write, &b, fmt, ap);

	if (size)
		buf[MIN(n, size - 1)] = 0;
	return n;
}

size_t format_sn(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = format_vsn(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
