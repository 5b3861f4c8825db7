/* The PS/2 mouse packet decoder (platform/qemu-x86_64/pure/ps2_mouse_packet.c). */
#include "support/test.h"
#include "../../platform/qemu-x86_64/pure/ps2_mouse_packet.h"
#include <ember/lib/util.h>

struct result {
	struct ps2_mouse_motion m[8];
	UINT32 count;
};

static struct result feed(struct ps2_mouse_packet *p, const UINT8 *bytes, size_t n)
{
	struct result r = {0};

	for (size_t i = 0; i < n; i++) {
		struct ps2_mouse_motion m;
		if (ps2_mouse_packet_feed(p, bytes[i], &m) && r.count < ARRAY_SIZE(r.m))
			r.m[r.count++] = m;
	}
	return r;
}

#define FEED(p, ...) feed(p, (const UINT8[]){__VA_ARGS__}, sizeof((const UINT8[]){__VA_ARGS__}))

TEST(ps2_mouse_motion_in_screen_directions)
{
	struct ps2_mouse_packet p;
	struct result r;

	ps2_mouse_packet_init(&p);
	/* Right 30 and up 20 on the mouse (down -20 on the screen); then left 10 and down 5
	 * (sign bits set: 9-bit two's complement). */
	r = FEED(&p, 0x08, 30, 20, 0x38, 0xf6, 0xfb);
	ASSERT_EQ(r.count, 2);
	EXPECT_EQ(r.m[0].dx, 30);
	EXPECT_EQ(r.m[0].dy, -20);
	EXPECT_EQ(r.m[1].dx, -10);
	EXPECT_EQ(r.m[1].dy, 5);
	EXPECT(!r.m[0].left && !r.m[0].right && !r.m[0].middle);
	/* The extremes: -256 and +255. */
	r = FEED(&p, 0x18, 0x00, 0xff);
	ASSERT_EQ(r.count, 1);
	EXPECT_EQ(r.m[0].dx, -256);
	EXPECT_EQ(r.m[0].dy, -255);
}

TEST(ps2_mouse_buttons)
{
	struct ps2_mouse_packet p;
	struct result r;

	ps2_mouse_packet_init(&p);
	r = FEED(&p, 0x09, 0, 0, 0x0a, 0, 0, 0x0c, 0, 0);
	ASSERT_EQ(r.count, 3);
	EXPECT(r.m[0].left && !r.m[0].right && !r.m[0].middle);
	EXPECT(!r.m[1].left && r.m[1].right && !r.m[1].middle);
	EXPECT(!r.m[2].left && !r.m[2].right && r.m[2].middle);
}

TEST(ps2_mouse_overflow_reports_no_motion)
{
	struct ps2_mouse_packet p;
	struct result r;

	ps2_mouse_packet_init(&p);
	r = FEED(&p, 0x48, 0x80, 7, 0x88, 5, 0x80, 0xc9, 1, 2);
	ASSERT_EQ(r.count, 3);
	EXPECT_EQ(r.m[0].dx, 0);
	EXPECT_EQ(r.m[0].dy, -7);
	EXPECT_EQ(r.m[1].dx, 5);
	EXPECT_EQ(r.m[1].dy, 0);
	EXPECT_EQ(r.m[2].dx, 0);
	EXPECT_EQ(r.m[2].dy, 0);
	EXPECT(r.m[2].left);
}

TEST(ps2_mouse_resynchronises_after_a_lost_byte)
{
	struct ps2_mouse_packet p;
	struct result r;

	ps2_mouse_packet_init(&p);
	/* Bytes without bit 3 cannot start a packet: they are dropped until one that can. */
	r = FEED(&p, 0x00, 0x05, 0x08, 3, 4);
	ASSERT_EQ(r.count, 1);
	EXPECT_EQ(r.m[0].dx, 3);
	EXPECT_EQ(r.m[0].dy, -4);
	/* init forgets a half-read packet. */
	r = FEED(&p, 0x08, 9);
	EXPECT_EQ(r.count, 0);
	ps2_mouse_packet_init(&p);
	r = FEED(&p, 0x08, 1, 2);
	ASSERT_EQ(r.count, 1);
	EXPECT_EQ(r.m[0].dx, 1);
}
