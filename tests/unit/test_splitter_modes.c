/* The console splitter's mode list (drivers/console_splitter/splitter_modes.c) and the
 * graphics console's modes for a screen size (drivers/graphics_console/gc_modes.c). */
#include "support/test.h"
#include "../../drivers/console_splitter/splitter_modes.h"
#include "../../drivers/graphics_console/gc.h"

/* A device with the given sizes (cols, rows pairs; a 0x0 entry is an unusable mode). */
static struct device_modes device(UINT32 count, const UINT32 sizes[][2])
{
	struct device_modes d = {.count = count};

	for (UINT32 i = 0; i < count; i++)
		d.mode[i] = (struct text_size){sizes[i][0], sizes[i][1], sizes[i][0] != 0};
	return d;
}

static const UINT32 terminal[][2] = {{80, 25}, {80, 50}, {100, 31}};
static const UINT32 screen_1024[][2] = {{80, 25}, {0, 0}, {100, 31}, {128, 48}};
static const UINT32 pipe[][2] = {{80, 25}, {80, 50}};

TEST(splitter_modes_without_devices)
{
	struct splitter_mode_table t;

	splitter_modes_build(&t, NULL, 0);
	ASSERT_EQ(t.count, 2);
	EXPECT(t.mode[0].valid && t.mode[0].cols == 80 && t.mode[0].rows == 25);
	EXPECT(t.mode[1].valid && t.mode[1].cols == 80 && t.mode[1].rows == 50);
}

TEST(splitter_modes_one_device_are_its_own)
{
	struct device_modes d = device(3, terminal);
	struct splitter_mode_table t;

	splitter_modes_build(&t, &d, 1);
	ASSERT_EQ(t.count, 3);
	EXPECT(t.mode[2].valid && t.mode[2].cols == 100 && t.mode[2].rows == 31);
	for (UINT32 i = 0; i < 3; i++)
		EXPECT_EQ(t.map[0][i], i);
}

TEST(splitter_modes_intersect_and_keep_mode_1_as_a_hole)
{
	struct device_modes d[2] = {device(4, screen_1024), device(3, terminal)};
	struct splitter_mode_table t;

	splitter_modes_build(&t, d, 2);
	/* 80x25; 80x50 listed but unusable (the screen is too low); 100x31 on both. */
	ASSERT_EQ(t.count, 3);
	EXPECT(t.mode[0].valid);
	EXPECT(!t.mode[1].valid);
	EXPECT(t.mode[2].valid && t.mode[2].cols == 100 && t.mode[2].rows == 31);
	EXPECT_EQ(t.map[0][2], 2);
	EXPECT_EQ(t.map[1][2], 2);
	EXPECT_EQ(splitter_modes_find(&t, 100, 31), 2);
	EXPECT_EQ(splitter_modes_find(&t, 80, 50), -1);
	EXPECT_EQ(splitter_modes_find(&t, 128, 48), -1);
}

TEST(splitter_modes_end_at_mode_0_when_nothing_else_is_shared)
{
	struct device_modes d[2] = {device(2, pipe), device(4, screen_1024)};
	struct splitter_mode_table t;

	splitter_modes_build(&t, d, 2);
	EXPECT_EQ(t.count, 1);
	EXPECT_EQ(t.map[1][0], 0);
}

TEST(splitter_modes_map_each_device_its_own_mode_numbers)
{
	static const UINT32 odd[][2] = {{80, 25}, {0, 0}, {128, 48}, {100, 31}};
	struct device_modes d[2] = {device(3, terminal), device(4, odd)};
	struct splitter_mode_table t;

	splitter_modes_build(&t, d, 2);
	ASSERT_EQ(t.count, 3);
	EXPECT_EQ(t.map[0][2], 2);
	EXPECT_EQ(t.map[1][2], 3);
}

TEST(gc_modes_follow_the_resolution)
{
	struct gc_mode m[GC_MAX_MODES];

	ASSERT_EQ(gc_modes_build(m, 1024, 768), 4);
	EXPECT(m[0].valid && m[0].cols == 80 && m[0].rows == 25);
	EXPECT_EQ(m[0].x, (1024 - 640) / 2);
	EXPECT_EQ(m[0].y, (768 - 400) / 2);
	EXPECT(!m[1].valid);
	EXPECT(m[2].valid && m[2].cols == 100 && m[2].rows == 31);
	EXPECT(m[3].valid && m[3].cols == 128 && m[3].rows == 48);
	EXPECT_EQ(m[3].x, 0);
	EXPECT_EQ(m[3].y, 0);

	ASSERT_EQ(gc_modes_build(m, 640, 480), 3);
	EXPECT(m[2].cols == 80 && m[2].rows == 30);
	ASSERT_EQ(gc_modes_build(m, 640, 400), 1); /* 80x25 is the whole screen */
	ASSERT_EQ(gc_modes_build(m, 1280, 800), 4);
	EXPECT(m[1].valid); /* 80x50 fits 800 rows */
	EXPECT(m[3].cols == 160 && m[3].rows == 50);
	EXPECT_EQ(gc_modes_build(m, 320, 200), 0);
}
