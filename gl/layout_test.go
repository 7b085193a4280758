package gl

import "testing"

// TestLayoutFor checks that software rasterizers get the expanded layout
// and GPUs the instanced one, by their GL_RENDERER strings.
func TestLayoutFor(t *testing.T) {
	for _, tc := range []struct {
		renderer string
		want     layout
	}{
		{"llvmpipe (LLVM 15.0.6, 256 bits)", expanded},
		{"softpipe", expanded},
		{"Google SwiftShader", expanded},
		{"Apple Software Renderer", expanded},
		{"NVIDIA GeForce RTX 3060/PCIe/SSE2", instanced},
		{"AMD Radeon RX 6800 (radeonsi, navi21, LLVM 15.0.6, DRM 3.49)", instanced},
		{"Mesa Intel(R) UHD Graphics 620 (KBL GT2)", instanced},
		{"", instanced},
	} {
		if got := layoutFor(tc.renderer); got != tc.want {
			t.Errorf("layoutFor(%q) = %v, want %v", tc.renderer, got, tc.want)
		}
	}
}
