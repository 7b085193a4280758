#version 410 core

// A sprite of a batch in which every sprite is untinted (snapshot.White):
// the atlas texel as it is. White premultiplied is (1, 1, 1, 1), so
// sprite.frag's texel times the tint is this texel exactly: the same
// picture, without the multiply and the tint's input a pixel, which is
// what a batch of plain sprites (a bunnymark, a tile layer) costs a
// software rasterizer most of all.

noperspective in vec2 v_uv;

uniform sampler2D u_atlas;

out vec4 o_color;

void main() {
	o_color = texture(u_atlas, v_uv);
}
