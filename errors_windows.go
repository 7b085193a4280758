package tandem

// noOpenGLHint is ErrNoOpenGL's fix on Windows, whose own display driver
// (a machine or a virtual machine without a vendor's driver) offers
// OpenGL 1.1 only.
const noOpenGLHint = "install the graphics card maker's driver (Windows' own display driver has OpenGL 1.1 only), " +
	"or, without a GPU, put Mesa's llvmpipe opengl32.dll beside the game"
