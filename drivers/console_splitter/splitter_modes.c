/* The splitter's mode list: the intersection of its devices' modes (see splitter_modes.h). */
#include "splitter_modes.h"

/* The device's usable mode of that size, or -1. */
static INT32 device_find(const struct device_modes *d, UINT32 cols, UINT32 rows)
{
	for (UINT32 i = 0; i < d->count; i++)
		if (d->mode[i].valid && d->mode[i].cols == cols && d->mode[i].rows == rows)
			return (INT32)i;
	return -1;
}

/* Adds a size to the table if every device has it; required sizes are added anyway
 * (a device lacking one is shown its mode 0 instead), marked valid only if all have it. */
static void add_size(struct splitter_mode_table *t, const struct device_modes *devices,
		     UINT32 device_count, UINT32 cols, UINT32 rows, bool required)
{
	UINT32 n = t->count;
	bool everywhere = true;

	if (n == SPLITTER_MAX_MODES)
		return;
	for (UINT32 d = 0; d < device_count; d++) {
		INT32 m = device_find(&devices[d], cols, rows);
		everywhere &= m >= 0;
		t->map[d][n] = m >= 0 ? (UINT32)m : 0;
	}
	if (!everywhere && !required)
		return;
	t->mode[n] = (struct text_size){cols, rows, everywhere};
	t->count++;
}

static bool is_standard(const struct text_size *s)
{
	return s->cols == 80 && (s->rows == 25 || s->rows == 50);
}

void splitter_modes_build(struct splitter_mode_table *t, const struct device_modes *devices,
			  UINT32 device_count)
{
	t->count = 0;
	add_size(t, devices, device_count, 80, 25, true);
	add_size(t, devices, device_count, 80, 50, true);
	t->mode[0].valid = true; /* every console shows 80x25 (12.4) */
	if (!device_count)
		return;
	for (UINT32 i = 0; i < devices[0].count; i++) {
		const struct text_size *s = &devices[0].mode[i];

		if (s->valid && !is_standard(s) && splitter_modes_find(t, s->cols, s->rows) < 0)
			add_size(t, devices, device_count, s->cols, s->rows, false);
	}
	/* Nothing after 80x50 and 80x50 unusable: the mode list ends at mode 0. */
	if (t->count == 2 && !t->mode[1].valid)
		t->count = 1;
}

INT32 splitter_modes_find(const struct splitter_mode_table *t, UINT32 cols, UINT32 rows)
{
	for (UINT32 i = 0; i < t->count; i++)
		if (t->mode[i].valid && t->mode[i].cols == cols && t->mode[i].rows == rows)
			return (INT32)i;
	return -1;
}
