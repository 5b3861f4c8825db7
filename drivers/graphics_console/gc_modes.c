/* The graphics console's text modes for a screen size (see gc.h). */
#include <ember/drivers/font.h>
#include "gc.h"

static struct gc_mode centred(UINT32 cols, UINT32 rows, UINT32 width, UINT32 height)
{
	bool fits = cols * FONT_WIDTH <= width && rows * FONT_HEIGHT <= height;
	struct gc_mode m = {cols, rows, fits, 0, 0};

	if (fits) {
		m.x = (width - cols * FONT_WIDTH) / 2;
		m.y = (height - rows * FONT_HEIGHT) / 2;
	}
	return m;
}

static bool listed(const struct gc_mode *modes, UINT32 count, UINT32 cols, UINT32 rows)
{
	for (UINT32 i = 0; i < count; i++)
		if (modes[i].cols == cols && modes[i].rows == rows)
			return true;
	return false;
}

UINT32 gc_modes_build(struct gc_mode *modes, UINT32 width, UINT32 height)
{
	UINT32 n = 0, full_cols = width / FONT_WIDTH, full_rows = height / FONT_HEIGHT;

	modes[n++] = centred(80, 25, width, height);
	if (!modes[0].valid)
		return 0;
	modes[n++] = centred(80, 50, width, height); /* listed even when it does not fit */
	if (centred(100, 31, width, height).valid)
		modes[n++] = centred(100, 31, width, height);
	if (!listed(modes, n, full_cols, full_rows) && n < GC_MAX_MODES)
		modes[n++] = centred(full_cols, full_rows, width, height);
	/* 80x50 unusable and nothing after it: the list is only mode 0. */
	if (n == 2 && !modes[1].valid)
		n = 1;
	return n;
}
