// Package shaders holds tandem's GLSL 410 core sources, embedded in the
// binary with //go:embed, and names the programs built from them.
//
// It is pure data: it imports no GL and may be used from any goroutine. The
// gl package compiles the sources (on the GL thread).
//
// Conventions shared by every shader here, which the gl package relies on:
//
//   - Quads are drawn as 4 vertices; a vertex finds its corner from
//     gl_VertexID & 3 (bit 0: right, bit 1: bottom), so the same vertex
//     shader serves an instanced triangle strip and an indexed, pre-expanded
//     buffer whose vertex v is corner v%4 of sprite v/4.
//   - The frame table is a samplerBuffer (u_frames, texture unit 1) of RGBA32F
//     texels, two per frame: (u0, v0, u1, v1) and (w, h, 0, 0). A frame index
//     past the table draws nothing.
//   - Tints arrive as straight-alpha RGBA8 (normalized vec4); the atlas
//     (u_atlas, texture unit 0) holds premultiplied alpha, and the fragment
//     shader outputs premultiplied alpha for glBlendFunc(ONE,
//     ONE_MINUS_SRC_ALPHA). sprite_cut.frag alone is drawn with blending
//     off, for cut-out art, where it gives the same pixels.
package shaders
