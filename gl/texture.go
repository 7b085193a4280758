package gl

import (
	"errors"
	"fmt"
	"image"
	"math"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// Texture is an RGBA8 2D texture, clamped at its edges. It holds
// premultiplied alpha, as image.RGBA does.
type Texture struct {
	id   uint32
	w, h int
	// nearest: sampled nearest. mixed marks its texels that are neither
	// fully opaque nor all zero, a bit each, row after row; nil when there
	// are none. A region of such texels alone (cut-out art: pixel art's
	// kind) drawn untinted and sampled nearest may leave blending off
	// (shaders.SpriteCut) for the same pixels; see cutout.
	nearest bool
	mixed   []uint64
}

// NewTexture uploads img (any bounds and stride; row Min.Y becomes v = 0).
// nearest selects nearest-neighbour filtering, for pixel art drawn at
// integer zoom; otherwise filtering is linear.
//
// GL thread only.
func NewTexture(img *image.RGBA, nearest bool) (*Texture, error) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w == 0 || h == 0 {
		return nil, errors.New("gl: new texture: empty image")
	}
	if limit := maxInt(gl.MAX_TEXTURE_SIZE); w > limit || h > limit {
		return nil, fmt.Errorf("gl: new texture: %dx%d exceeds the driver's limit of %d", w, h, limit)
	}
	filter := int32(gl.LINEAR)
	if nearest {
		filter = gl.NEAREST
	}
	t := &Texture{w: w, h: h, id: genTexture(filter), nearest: nearest, mixed: mixedTexels(img)}
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 4)
	check("glPixelStorei")
	gl.PixelStorei(gl.UNPACK_ROW_LENGTH, int32(img.Stride/4))
	check("glPixelStorei")
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, int32(w), int32(h), 0, gl.RGBA, gl.UNSIGNED_BYTE,
		unsafe.Pointer(&img.Pix[img.PixOffset(b.Min.X, b.Min.Y)]))
	// The one error the driver may raise here is GL_OUT_OF_MEMORY, a
	// condition of the machine: read it even without gldebug.
	err := gl.GetError()
	gl.PixelStorei(gl.UNPACK_ROW_LENGTH, 0)
	check("glPixelStorei")
	if err != gl.NO_ERROR {
		t.Delete()
		return nil, fmt.Errorf("gl: new texture: %dx%d: glTexImage2D error 0x%04x", w, h, err)
	}
	return t, nil
}

// mixedTexels returns a bit per texel of img, row after row, set where the
// texel is neither fully opaque (alpha 255) nor fully transparent and zero
// (premultiplied, as image.RGBA holds it, a transparent texel with colour
// adds light under blending, which a discard would drop); nil when no bit
// is set.
func mixedTexels(img *image.RGBA) []uint64 {
	b := img.Bounds()
	w := b.Dx()
	var bits []uint64
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := img.Pix[img.PixOffset(b.Min.X, y):img.PixOffset(b.Max.X, y)]
		for i := 0; i < len(row); i += 4 {
			if a := row[i+3]; a != 0xFF && (a != 0 || row[i]|row[i+1]|row[i+2] != 0) {
				if bits == nil {
					bits = make([]uint64, (w*b.Dy()+63)/64)
				}
				k := (y-b.Min.Y)*w + i/4
				bits[k/64] |= 1 << (k % 64)
			}
		}
	}
	return bits
}

// cutout reports whether frame f of the texture is cut-out art: sampled
// nearest, and every texel of its region, and of the texel's width around
// it (a pixel on the region's edge may sample its neighbour), fully opaque
// or all zero. Drawn untinted with blending off, such a frame gives the
// pixels blending gives.
func (t *Texture) cutout(f UVRect) bool {
	if t == nil || !t.nearest {
		return false
	}
	if t.mixed == nil {
		return true
	}
	span := func(a, b float32, n int) (int, int) {
		lo, hi := min(a, b)*float32(n), max(a, b)*float32(n)
		return max(int(math.Floor(float64(lo)))-1, 0), min(int(math.Ceil(float64(hi)))+1, n)
	}
	x0, x1 := span(f.U0, f.U1, t.w)
	y0, y1 := span(f.V0, f.V1, t.h)
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			if k := y*t.w + x; t.mixed[k/64]&(1<<(k%64)) != 0 {
				return false
			}
		}
	}
	return true
}

// Size returns the texture's size in texels.
//
// Any goroutine.
func (t *Texture) Size() (w, h int) { return t.w, t.h }

// Delete frees the texture. It must not be used afterwards, nor drawn by a
// batch created with it.
//
// GL thread only.
func (t *Texture) Delete() {
	if t.id != 0 {
		gl.DeleteTextures(1, &t.id)
		check("glDeleteTextures")
		t.id = 0
	}
}

// genTexture creates a 2D texture, leaves it bound, and sets its filter
// (gl.LINEAR or gl.NEAREST) and edges clamped: every texture of the
// package starts so. GL thread only.
func genTexture(filter int32) uint32 {
	var id uint32
	gl.GenTextures(1, &id)
	check("glGenTextures")
	gl.BindTexture(gl.TEXTURE_2D, id)
	check("glBindTexture")
	for _, p := range [...][2]int32{
		{gl.TEXTURE_MIN_FILTER, filter},
		{gl.TEXTURE_MAG_FILTER, filter},
		{gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE},
		{gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE},
	} {
		gl.TexParameteri(gl.TEXTURE_2D, uint32(p[0]), p[1])
		check("glTexParameteri")
	}
	return id
}
