/* The boot page's rules: moving rows, the BootOrder a save writes, a free option number. */
#include "boot_store.h"

_Static_assert(offsetof(struct boot_store, active) == BOOT_OFF_ACTIVE(0), "layout");
_Static_assert(sizeof(struct boot_store) == 4 + 4 * BOOT_ROWS, "layout");

/* Swaps two rows' number and state. */
static void swap(struct boot_store *s, unsigned a, unsigned b)
{
	UINT16 n = s->number[a];
	UINT8 act = s->active[a], rm = s->remove[a];

	s->number[a] = s->number[b], s->active[a] = s->active[b], s->remove[a] = s->remove[b];
	s->number[b] = n, s->active[b] = act, s->remove[b] = rm;
}

/* Moves a row up or down by one. */
bool boot_store_move(struct boot_store *s, unsigned row, bool up)
{
	if (s->count > BOOT_ROWS || row >= s->count || (up && row == 0) ||
	    (!up && row + 1 >= s->count))
		return false;
	swap(s, row, up ? row - 1 : row + 1);
	return true;
}

static bool in_rows(const struct boot_store *s, UINT16 number)
{
	for (unsigned i = 0; i < s->count && i < BOOT_ROWS; i++)
		if (s->number[i] == number)
			return true;
	return false;
}

static void add(UINT16 *out, size_t room, size_t *n, UINT16 v)
{
	if (*n < room)
		out[*n] = v;
	(*n)++;
}

/* The kept rows, then what else old had. */
size_t boot_store_order(const struct boot_store *s, const UINT16 *old, size_t old_count,
			UINT16 *out, size_t room)
{
	size_t n = 0;

	for (unsigned i = 0; i < s->count && i < BOOT_ROWS; i++)
		if (!s->remove[i])
			add(out, room, &n, s->number[i]);
	for (size_t i = 0; i < old_count; i++)
		if (!in_rows(s, old[i]))
			add(out, room, &n, old[i]);
	return n;
}
