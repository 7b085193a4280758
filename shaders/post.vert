#version 410 core

// One triangle over the whole framebuffer, for a game's layer or screen
// shader: v_uv runs 0..1 across the framebuffer, (0, 0) at its
// bottom-left, as the layer's texture is stored.

out vec2 v_uv;

void main() {
	vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2); // (0,0) (2,0) (0,2)
	v_uv = p;
	gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
