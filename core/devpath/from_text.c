/* Text to device path (UEFI 2.10, 10.6.3): splitting the text into nodes and parameters and
 * dispatching each node to its parser (from_text_*.c). The text is outside data (boot options,
 * shell input): every read is bounded by the slice being parsed. */
#define LOG_PREFIX "devpath: "
#include "devpath_internal.h"
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

static const struct dp_parser_entry *const parser_tables[] = {dp_parsers_hw, dp_parsers_msg,
							      dp_parsers_net, dp_parsers_media};

static bool is_name_char(CHAR16 c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-';
}

static bool ascii_eq_n(const CHAR16 *s, UINTN n, const char *word)
{
	UINTN i = 0;

	for (; i < n && word[i]; i++)
		if (char16_upper(s[i]) != char16_upper((UINT8)word[i]))
			return false;
	return i == n && !word[i];
}

static const struct dp_parser_entry *find_parser(const CHAR16 *name, UINTN n)
{
	for (UINTN t = 0; t < ARRAY_SIZE(parser_tables); t++)
		for (const struct dp_parser_entry *e = parser_tables[t]; e->name; e++)
			if (ascii_eq_n(name, n, e->name))
				return e;
	return NULL;
}

/* Length of the name when s is Name(...) with the first '(' closed by the last character. */
static UINTN node_name_length(const CHAR16 *s, UINTN n)
{
	UINTN name = 0, depth = 0;

	while (name < n && is_name_char(s[name]))
		name++;
	if (!name || name + 2 > n || s[name] != '(' || s[n - 1] != ')')
		return 0;
	for (UINTN i = name; i < n; i++) {
		if (s[i] == '(') {
			depth++;
		} else if (s[i] == ')') {
			if (depth == 0 || (--depth == 0 && i != n - 1))
				return 0;
		}
	}
	return depth == 0 ? name : 0;
}

bool dp_text_is_node(const CHAR16 *s, UINTN n)
{
	UINTN name = node_name_length(s, n);

	return name && find_parser(s, name);
}

bool dp_next_piece(struct dp_str *rest, struct dp_str *piece, bool *more)
{
	UINTN i = 0, depth = 0;
	bool quoted = false;

	if (!*more)
		return false;
	for (; i < rest->n; i++) {
		CHAR16 c = rest->s[i];

		if (c == '"')
			quoted = !quoted;
		else if (c == '(')
			depth++;
		else if (c == ')' && depth)
			depth--;
		else if (c == ',' && !quoted && !depth)
			break;
	}
	*piece = (struct dp_str){rest->s, i};
	*more = i < rest->n;
	i = MIN(i + 1, rest->n);
	rest->s += i;
	rest->n -= i;
	return true;
}

struct dp_str dp_str_trim(struct dp_str s)
{
	while (s.n && s.s[0] == ' ')
		s.s++, s.n--;
	while (s.n && s.s[s.n - 1] == ' ')
		s.n--;
	return s;
}

/* Index of the parameter named by a "Name=" prefix of piece, or -1. */
static int named_param(const char *params, struct dp_str piece, struct dp_str *value)
{
	UINTN eq = 0;
	int index = 0;

	while (eq < piece.n && is_name_char(piece.s[eq]))
		eq++;
	if (!eq || eq >= piece.n || piece.s[eq] != '=')
		return -1;
	for (const char *p = params; *p; index++) {
		const char *end = str8_chr(p, ',');
		UINTN len = end ? (UINTN)(end - p) : str8_len(p);

		if (len == eq) {
			UINTN k = 0;

			while (k < len && char16_upper(piece.s[k]) == char16_upper((UINT8)p[k]))
				k++;
			if (k == len) {
				*value = dp_str_trim(
				    (struct dp_str){piece.s + eq + 1, piece.n - eq - 1});
				return index;
			}
		}
		p += len + (end ? 1 : 0);
	}
	return -1;
}

static UINTN param_count(const char *params)
{
	UINTN count = *params ? 1 : 0;

	for (; *params; params++)
		count += *params == ',';
	return count;
}

/* Fills a->v[] by position or by "Name=value"; false for too many parameters. */
static bool split_args(const struct dp_parser_entry *e, struct dp_str content, struct dp_args *a)
{
	UINTN limit = MIN(param_count(e->params), (UINTN)DP_MAX_ARGS), pos = 0;
	struct dp_str rest = content, piece;
	bool more = content.n > 0;

	*a = (struct dp_args){.raw = content, .ctx = e->ctx, .guid = e->guid};
	if (e->flags & DP_PARSE_RAW) {
		a->v[0] = content;
		a->given[0] = content.n > 0;
		return true;
	}
	while (dp_next_piece(&rest, &piece, &more)) {
		struct dp_str value = dp_str_trim(piece);
		int named = named_param(e->params, value, &value);
		UINTN slot = named >= 0 ? (UINTN)named : pos;

		if (slot >= limit) {
			log_debug("%s() takes %u parameters\n", e->name, (UINT32)limit);
			return false;
		}
		a->v[slot] = value;
		a->given[slot] = value.n > 0;
		pos++;
	}
	return true;
}

/* Any text that is not a known device node is a file path (10.6.1.7). */
static bool parse_file_path(struct dp_str s, struct dp_buf *out)
{
	CHAR16 nul = 0;
	UINTN start = dp_buf_node_begin(out, MEDIA_DEVICE_PATH, MEDIA_FILEPATH_DP);

	dp_buf_put(out, s.s, s.n * sizeof(CHAR16));
	dp_buf_put(out, &nul, sizeof(nul));
	if (dp_buf_node_end(out, start))
		return true;
	log_debug("file path of %llu characters: too long, or no memory\n",
		  (unsigned long long)s.n);
	return false;
}

static bool parse_node(struct dp_str s, struct dp_buf *out)
{
	UINTN name = node_name_length(s.s, s.n), mark = out->size;
	const struct dp_parser_entry *e = name ? find_parser(s.s, name) : NULL;
	struct dp_args args;

	if (!e)
		return parse_file_path(s, out);
	if (!split_args(e, (struct dp_str){s.s + name + 1, s.n - name - 2}, &args))
		return false; /* split_args said why */
	if (e->parse(&args, out) && !out->failed)
		return true;
	log_debug("\"%.*ls\": %s\n", (int)s.n, s.s,
		  out->failed ? "no memory" : "refused its parameters");
	dp_buf_truncate(out, mark);
	return false;
}

/* Finds the node text at text[*i]: up to the first '/' or ',' outside parentheses. */
static bool scan_node(const CHAR16 *text, UINTN *i, struct dp_str *node)
{
	UINTN start = *i, depth = 0;

	for (; text[*i]; (*i)++) {
		CHAR16 c = text[*i];

		if (c == '(')
			depth++;
		else if (c == ')' && depth)
			depth--;
		else if (!depth && (c == '/' || c == ','))
			break;
	}
	*node = (struct dp_str){text + start, *i - start};
	if (depth) {
		log_debug("\"%.*ls\": a parenthesis is not closed\n", (int)node->n, node->s);
		return false;
	}
	return true;
}

static void put_end(struct dp_buf *out, UINT8 subtype)
{
	EFI_DEVICE_PATH_PROTOCOL end = {END_DEVICE_PATH_TYPE, subtype, {DP_END_SIZE, 0}};

	dp_buf_put(out, &end, sizeof(end));
}

EFI_DEVICE_PATH_PROTOCOL *dp_from_text(const CHAR16 *text)
{
	struct dp_buf out = {0};
	UINTN i = 0;

	if (!text)
		return NULL;
	for (;;) {
		struct dp_str node;

		if (!scan_node(text, &i, &node) || (node.n && !parse_node(node, &out)))
			goto fail; /* scan_node or parse_node said why */
		if (out.failed) {
			log_debug("no memory for the device path\n");
			goto fail;
		}
		if (!text[i])
			break;
		if (text[i] == ',')
			put_end(&out, END_INSTANCE_DEVICE_PATH_SUBTYPE);
		i++;
	}
	put_end(&out, END_ENTIRE_DEVICE_PATH_SUBTYPE);
	return dp_buf_take(&out);
fail:
	dp_buf_free(&out);
	return NULL;
}

EFI_DEVICE_PATH_PROTOCOL *dp_node_from_text(const CHAR16 *text)
{
	struct dp_buf out = {0};
	struct dp_str node;
	UINTN i = 0;

	if (!text)
		return NULL;
	while (text[i] == '/')
		i++;
	if (!scan_node(text, &i, &node))
		goto fail;
	if (!node.n) {
		log_debug("no device node in \"%ls\"\n", text);
		goto fail;
	}
	if (!parse_node(node, &out))
		goto fail;
	return dp_buf_take(&out);
fail:
	dp_buf_free(&out);
	return NULL;
}
