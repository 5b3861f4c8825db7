/* Case-insensitive wildcard matching with one backtracking point per '*'. */
#include <ember/lib/path.h>

#include "wild.h"

/* Matches one bracket set at *pattern (just past '[', a ']' known to follow); advances
 * *pattern past the ']'. */
static bool set_match(CHAR16 c, const CHAR16 **pattern)
{
	const CHAR16 *p = *pattern;
	CHAR16 want = path_upper(c), prev = 0;
	bool found = false;

	for (; *p && *p != ']'; p++) {
		if (*p == '-' && prev && p[1] && p[1] != ']') {
			CHAR16 hi = path_upper(p[1]);
			if (want >= prev && want <= hi)
				found = true;
			prev = 0;
			p++;
			continue;
		}
		prev = path_upper(*p);
		if (prev == want)
			found = true;
	}
	*pattern = p + 1;
	return found;
}

/* Matches the character at name against the pattern element at *p; advances *p. */
static bool one_match(CHAR16 c, const CHAR16 **p)
{
	CHAR16 e = **p;

	if (e == '?') {
		(*p)++;
		return true;
	}
	if (e == '[') {
		const CHAR16 *after = *p + 1;
		const CHAR16 *q = after;
		while (*q && *q != ']')
			q++;
		if (*q) {
			*p = after;
			return set_match(c, p);
		}
	}
	(*p)++;
	return path_upper(c) == path_upper(e);
}

bool sh_wild_match(const CHAR16 *name, const CHAR16 *pattern)
{
	const CHAR16 *star_p = NULL, *star_n = NULL;

	while (*name) {
		if (*pattern == '*') {
			while (*pattern == '*')
				pattern++;
			if (!*pattern)
				return true;
			star_p = pattern;
			star_n = name;
			continue;
		}
		if (*pattern && one_match(*name, &pattern)) {
			name++;
			continue;
		}
		if (!star_p)
			return false;
		/* Let the last '*' swallow one more character and try again. */
		pattern = star_p;
		name = ++star_n;
	}
	while (*pattern == '*')
		pattern++;
	return !*pattern;
}

bool sh_has_wildcards(const CHAR16 *text)
{
	for (; *text; text++)
		if (*text == '*' || *text == '?' || *text == '[')
			return true;
	return false;
}
