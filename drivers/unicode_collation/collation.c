/* Case folding, comparison and wildcard matching for EFI_UNICODE_COLLATION_PROTOCOL2
 * (UEFI 2.10, 19.1.1 - 19.1.4). */
#include "collation.h"
#include <ember/lib/path.h>

CHAR16 collation_upper(CHAR16 c)
{
	return path_upper(c);
}

CHAR16 collation_lower(CHAR16 c)
{
	if (c >= u'A' && c <= u'Z')
		return (CHAR16)(c + 0x20);
	if (c < 0x80)
		return c;
	if ((c >= 0xc0 && c <= 0xde && c != 0xd7) || (c >= 0x391 && c <= 0x3ab && c != 0x3a2) ||
	    (c >= 0x410 && c <= 0x42f))
		return (CHAR16)(c + 0x20);
	if (c == 0x178)
		return 0xff;
	if (c >= 0x400 && c <= 0x40f)
		return (CHAR16)(c + 0x50);
	return c;
}

INTN collation_compare(const CHAR16 *a, const CHAR16 *b)
{
	while (*a && collation_upper(*a) == collation_upper(*b)) {
		a++;
		b++;
	}
	return (INTN)collation_upper(*a) - (INTN)collation_upper(*b);
}

/* Matches c against the set starting after '[': returns the set's length up to and
 * including ']', or 0 when the ']' is missing. */
static size_t match_set(const CHAR16 *set, CHAR16 c, bool *hit)
{
	CHAR16 u = collation_upper(c);
	size_t i = 0;

	*hit = false;
	while (set[i] && set[i] != u']') {
		CHAR16 lo = collation_upper(set[i]), hi = lo;

		if (set[i + 1] == u'-' && set[i + 2] && set[i + 2] != u']') {
			hi = collation_upper(set[i + 2]);
			i += 2;
		}
		if (u >= lo && u <= hi)
			*hit = true;
		i++;
	}
	return set[i] == u']' ? i + 2 : 0; /* '[' + members + ']' */
}

/* Matches one pattern element (not '*') against c: its length, 0 for a broken set. */
static size_t match_one(const CHAR16 *p, CHAR16 c, bool *hit)
{
	if (*p == u'[')
		return match_set(p + 1, c, hit);
	*hit = *p == u'?' || collation_upper(*p) == collation_upper(c);
	return 1;
}

bool collation_match(const CHAR16 *s, const CHAR16 *p)
{
	const CHAR16 *star_p = NULL, *star_s = NULL;

	for (;;) {
		if (*p == u'*') {
			while (*p == u'*')
				p++;
			star_p = p;
			star_s = s;
			continue;
		}
		if (!*p && !*s)
			return true;
		if (*p && *s) {
			bool hit;
			size_t n = match_one(p, *s, &hit);

			if (n == 0)
				return false;
			if (hit) {
				p += n;
				s++;
				continue;
			}
		}
		/* Let the last '*' swallow one more character and try again. */
		if (!star_p || !*star_s)
			return false;
		s = ++star_s;
		p = star_p;
	}
}

void collation_str_upper(CHAR16 *s)
{
	for (; *s; s++)
		*s = collation_upper(*s);
}

void collation_str_lower(CHAR16 *s)
{
	for (; *s; s++)
		*s = collation_lower(*s);
}
