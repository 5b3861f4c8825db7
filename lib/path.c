/* EFI file path normalisation and FAT-style name comparison (UEFI 2.10, 13.5.2). */
#include <ember/lib/path.h>
#include <ember/lib/str.h>

#define SEPARATOR u'\\'

static bool unit_allowed(CHAR16 c)
{
	return c >= 0x20 && c != 0x7f && c != u'/';
}

static bool is_dot(const CHAR16 *s, size_t len)
{
	return len == 1 && s[0] == u'.';
}

static bool is_dot_dot(const CHAR16 *s, size_t len)
{
	return len == 2 && s[0] == u'.' && s[1] == u'.';
}

/* Drops the last component of the normalised path in out[0..*len). */
static EFI_STATUS pop_component(CHAR16 *out, size_t *len)
{
	size_t n = *len;

	if (n <= 1)
		return EFI_NOT_FOUND;
	while (n > 0 && out[n - 1] != SEPARATOR)
		n--;
	*len = n > 1 ? n - 1 : 1;
	return EFI_SUCCESS;
}

/* Appends one component to the normalised path in out[0..*len). */
static EFI_STATUS push_component(CHAR16 *out, size_t *len, size_t out_units, const CHAR16 *name,
				 size_t name_len)
{
	size_t n = *len, need;

	if (name_len > PATH_NAME_MAX)
		return EFI_INVALID_PARAMETER;
	for (size_t i = 0; i < name_len; i++)
		if (!unit_allowed(name[i]))
			return EFI_INVALID_PARAMETER;
	need = n + (n > 1) + name_len + 1;
	if (need > out_units)
		return EFI_BUFFER_TOO_SMALL;
	if (n > 1)
		out[n++] = SEPARATOR;
	mem_copy(out + n, name, name_len * sizeof(CHAR16));
	*len = n + name_len;
	return EFI_SUCCESS;
}

/* Copies the starting point: the root for absolute names, else base (checked). */
static EFI_STATUS start_path(const CHAR16 *base, const CHAR16 *name, CHAR16 *out, size_t out_units,
			     size_t *len)
{
	size_t n = 1;

	if (out_units < 2)
		return EFI_BUFFER_TOO_SMALL;
	out[0] = SEPARATOR;
	if (name[0] == SEPARATOR) {
		*len = 1;
		return EFI_SUCCESS;
	}
	if (base[0] != SEPARATOR)
		return EFI_INVALID_PARAMETER;
	for (const CHAR16 *p = base + 1; *p;) {
		const CHAR16 *start = p;
		EFI_STATUS status;

		while (*p && *p != SEPARATOR)
			p++;
		status = push_component(out, &n, out_units, start, (size_t)(p - start));
		if (EFI_ERROR(status))
			return status;
		if (*p)
			p++;
	}
	*len = n;
	return EFI_SUCCESS;
}

EFI_STATUS path_normalize(const CHAR16 *base, const CHAR16 *name, CHAR16 *out, size_t out_units)
{
	size_t len;
	EFI_STATUS status = start_path(base, name, out, out_units, &len);

	for (const CHAR16 *p = name; !EFI_ERROR(status) && *p;) {
		const CHAR16 *start = p;
		size_t n;

		while (*p && *p != SEPARATOR)
			p++;
		n = (size_t)(p - start);
		if (*p)
			p++;
		if (n == 0 || is_dot(start, n))
			continue;
		if (is_dot_dot(start, n))
			status = pop_component(out, &len);
		else
			status = push_component(out, &len, out_units, start, n);
	}
	if (EFI_ERROR(status))
		return status;
	out[len] = 0;
	return EFI_SUCCESS;
}

size_t path_next(const CHAR16 **cursor, const CHAR16 **name)
{
	const CHAR16 *p = *cursor;
	size_t n = 0;

	while (*p == SEPARATOR)
		p++;
	*name = p;
	while (p[n] && p[n] != SEPARATOR)
		n++;
	*cursor = p + n;
	return n;
}

const CHAR16 *path_last(const CHAR16 *path)
{
	const CHAR16 *last = path;

	for (const CHAR16 *p = path; *p; p++)
		if (*p == SEPARATOR)
			last = p + 1;
	return last;
}

size_t path_parent_len(const CHAR16 *path)
{
	size_t last = path_last(path) - path;

	if (path[last] == 0)
		return 0; /* the root */
	return last > 1 ? last - 1 : 1;
}

CHAR16 path_upper(CHAR16 c)
{
	if (c >= u'a' && c <= u'z')
		return (CHAR16)(c - 0x20);
	if (c < 0x80)
		return c;
	if ((c >= 0xe0 && c <= 0xfe && c != 0xf7) || (c >= 0x3b1 && c <= 0x3cb && c != 0x3c2) ||
	    (c >= 0x430 && c <= 0x44f))
		return (CHAR16)(c - 0x20);
	if (c == 0xff)
		return 0x178;
	if (c == 0x3c2) /* final sigma */
		return 0x3a3;
	if (c >= 0x450 && c <= 0x45f)
		return (CHAR16)(c - 0x50);
	return c;
}

bool path_name_equal(const CHAR16 *a, size_t a_len, const CHAR16 *b, size_t b_len)
{
	if (a_len != b_len)
		return false;
	for (size_t i = 0; i < a_len; i++)
		if (path_upper(a[i]) != path_upper(b[i]))
			return false;
	return true;
}

bool path_name_creatable(const CHAR16 *name, size_t len)
{
	static const CHAR16 forbidden[] = u"\"*/:<>?\\|";
	bool only_dots = true;

	if (len == 0 || len > PATH_NAME_MAX)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (name[i] < 0x20 || name[i] == 0x7f || str16_chr(forbidden, name[i]))
			return false;
		only_dots = only_dots && name[i] == u'.';
	}
	return !only_dots;
}
