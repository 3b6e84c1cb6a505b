package manifest

import (
	"context"
	"io"
)

// ReadProgress is how far reading has come: the bytes read from the
// inputs and the objects decoded so far.
type ReadProgress struct {
	// File is the input being read ("-" for standard input).
	File string
	// Bytes counts the bytes read from every input so far.
	Bytes int64
	// Objects counts the objects read so far: the documents decoded and
	// the items of the List being read.
	Objects int
}

// SetContext makes the Reader stop when ctx is done: every read from an
// input and every document first checks ctx, so a large file is left
// within one buffer's read of the cancellation. The error then wraps
// ctx.Err().
func (r *Reader) SetContext(ctx context.Context) { r.ctx = ctx }

// SetProgress makes the Reader call f as it reads, after each read from
// an input (64 KiB or so). f runs on the reading goroutine.
func (r *Reader) SetProgress(f func(ReadProgress)) { r.progress = f }

// ctxErr is the error of the Reader's context, nil without one.
func (r *Reader) ctxErr() error {
	if r.ctx == nil {
		return nil
	}
	return r.ctx.Err()
}

// watch wraps in so that its reads check the context and report progress;
// in's Seek is kept.
func (r *Reader) watch(name string, in io.Reader) io.Reader {
	if r.ctx == nil && r.progress == nil {
		return in
	}
	w := &watched{r: r, name: name, in: in}
	if sk, ok := in.(io.Seeker); ok {
		return &watchedSeeker{watched: w, sk: sk}
	}
	return w
}

// watched is an input that checks the Reader's context before each read
// and reports progress after it.
type watched struct {
	r    *Reader
	name string
	in   io.Reader
}

func (w *watched) Read(p []byte) (int, error) {
	if err := w.r.ctxErr(); err != nil {
		return 0, err
	}
	n, err := w.in.Read(p)
	w.r.bytes += int64(n)
	if w.r.progress != nil {
		w.r.progress(ReadProgress{File: w.name, Bytes: w.r.bytes, Objects: w.r.objects + w.r.listed})
	}
	return n, err
}

// watchedSeeker is a watched input that can seek.
type watchedSeeker struct {
	*watched
	sk io.Seeker
}

func (w *watchedSeeker) Seek(off int64, whence int) (int64, error) { return w.sk.Seek(off, whence) }
