#include "app/animation/video_writer.h"

#include "core/io/atomic_file.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <algorithm>
#include <atomic>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace fb {

namespace {
std::string avError(int code)
{
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof text);
    return text;
}

std::string lowerExtension(const std::string &path)
{
    const auto dot = path.find_last_of('.');
    const auto slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
    std::string ext = path.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext;
}
} // namespace

namespace {
// The temporary files of the open writers, for the signal handler: fixed buffers (a handler may not
// allocate), each slot claimed with a compare-exchange, 0 free, 1 being filled, 2 ready to remove.
constexpr int kPartialSlots = 8;
char partialPaths[kPartialSlots][4096];
std::atomic<int> partialState[kPartialSlots];

int rememberPartial(const std::string &path)
{
    if (path.size() >= sizeof partialPaths[0]) return -1;
    for (int i = 0; i < kPartialSlots; ++i) {
        int expected = 0;
        if (!partialState[i].compare_exchange_strong(expected, 1)) continue;
        std::memcpy(partialPaths[i], path.c_str(), path.size() + 1);
        partialState[i].store(2);
        return i;
    }
    return -1;
}

void forgetPartial(int slot)
{
    if (slot >= 0) partialState[slot].store(0);
}

extern "C" void removePartialsAndDie(int sig)
{
    for (int i = 0; i < kPartialSlots; ++i)
        if (partialState[i].load() == 2) ::unlink(partialPaths[i]);
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}
} // namespace

void removePartialFilesOnSignals()
{
    struct sigaction action {};
    action.sa_handler = removePartialsAndDie;
    sigemptyset(&action.sa_mask);
    for (int sig : { SIGINT, SIGTERM, SIGHUP }) {
        struct sigaction old {};
        // A signal ignored on purpose (nohup, a shell's background job) stays ignored.
        if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        ::sigaction(sig, &action, nullptr);
    }
}

struct VideoWriter::Impl {
    VideoSettings settings;
    std::string path, tmpPath;
    AVFormatContext *format = nullptr;
    AVCodecContext *codec = nullptr;
    AVStream *stream = nullptr;
    AVFrame *frame = nullptr;    // the encoder's input (yuv420p) or the filter's (bgra)
    AVFrame *filtered = nullptr; // GIF: pal8 frames out of paletteuse
    AVPacket *packet = nullptr;
    SwsContext *sws = nullptr;
    AVFilterGraph *graph = nullptr;
    AVFilterContext *source = nullptr, *sink = nullptr;
    std::int64_t nextPts = 0;
    int frames = 0;
    bool finished = false;
    bool headerWritten = false;  // the muxer holds packets until its trailer is written
    bool trailerTried = false;
    int partialSlot = -1;  // in the signal handler's list while the temporary file exists

    ~Impl()
    {
        // A cancelled or failed animation: the trailer releases the packets the muxer still queues
        // for interleaving (avformat_free_context leaves them), into the file about to be removed.
        if (format && headerWritten && !trailerTried && format->pb) av_write_trailer(format);
        if (format && format->pb) avio_closep(&format->pb);
        avformat_free_context(format);
        avcodec_free_context(&codec);
        av_frame_free(&frame);
        av_frame_free(&filtered);
        av_packet_free(&packet);
        sws_freeContext(sws);
        avfilter_graph_free(&graph);
        if (!finished && !tmpPath.empty()) std::remove(tmpPath.c_str());
        forgetPartial(partialSlot);
    }

    bool fail(std::string &error, const std::string &what, int code)
    {
        error = what + ": " + avError(code);
        return false;
    }

    // Sends f (null: flush) to the encoder and writes every packet it hands back.
    bool encode(AVFrame *f, std::string &error)
    {
        int r = avcodec_send_frame(codec, f);
        if (r < 0) return fail(error, "encoding a frame failed", r);
        for (;;) {
            r = avcodec_receive_packet(codec, packet);
            if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return true;
            if (r < 0) return fail(error, "encoding a frame failed", r);
            av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
            packet->stream_index = stream->index;
            r = av_interleaved_write_frame(format, packet);
            if (r < 0) return fail(error, "writing '" + tmpPath + "' failed", r);
            if (format->pb->error < 0) return fail(error, "writing '" + tmpPath + "' failed", format->pb->error);
        }
    }

    // GIF: pushes f (null: flush) through palettegen/paletteuse and encodes what comes out.
    bool filterAndEncode(AVFrame *f, std::string &error)
    {
        int r = av_buffersrc_add_frame_flags(source, f, AV_BUFFERSRC_FLAG_KEEP_REF);
        if (r < 0) return fail(error, "choosing the GIF palette failed", r);
        for (;;) {
            r = av_buffersink_get_frame(sink, filtered);
            if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return true;
            if (r < 0) return fail(error, "choosing the GIF palette failed", r);
            filtered->pict_type = AV_PICTURE_TYPE_NONE;
            const bool ok = encode(filtered, error);
            av_frame_unref(filtered);
            if (!ok) return false;
        }
    }

    bool openGifFilter(std::string &error)
    {
        graph = avfilter_graph_alloc();
        if (!graph) return fail(error, "out of memory", AVERROR(ENOMEM));
        char args[256];
        std::snprintf(args, sizeof args, "video_size=%dx%d:pix_fmt=%d:time_base=1/%d:pixel_aspect=1/1",
                      settings.width, settings.height, int(AV_PIX_FMT_BGRA), settings.fps);
        int r = avfilter_graph_create_filter(&source, avfilter_get_by_name("buffer"), "in", args, nullptr, graph);
        if (r < 0) return fail(error, "the GIF palette filter", r);
        r = avfilter_graph_create_filter(&sink, avfilter_get_by_name("buffersink"), "out", nullptr, nullptr, graph);
        if (r < 0) return fail(error, "the GIF palette filter", r);
        const enum AVPixelFormat pal8[] = { AV_PIX_FMT_PAL8, AV_PIX_FMT_NONE };
        r = av_opt_set_int_list(sink, "pix_fmts", pal8, AV_PIX_FMT_NONE, AV_OPT_SEARCH_CHILDREN);
        if (r < 0) return fail(error, "the GIF palette filter", r);
        // A palette per frame from the frame's own colours; no dithering: charts are flat colours and
        // dither noise would show as grain on a projector.
        AVFilterInOut *outputs = avfilter_inout_alloc(), *inputs = avfilter_inout_alloc();
        outputs->name = av_strdup("in");
        outputs->filter_ctx = source;
        inputs->name = av_strdup("out");
        inputs->filter_ctx = sink;
        r = avfilter_graph_parse_ptr(graph,
            "split[a][b];[a]palettegen=stats_mode=single:max_colors=256:reserve_transparent=0[p];"
            "[b][p]paletteuse=new=1:dither=none",
            &inputs, &outputs, nullptr);
        avfilter_inout_free(&inputs);
        avfilter_inout_free(&outputs);
        if (r < 0) return fail(error, "the GIF palette filter", r);
        r = avfilter_graph_config(graph, nullptr);
        if (r < 0) return fail(error, "the GIF palette filter", r);
        return true;
    }

    bool open(std::string &error)
    {
        const bool mp4 = settings.format == VideoFormat::Mp4;
        const AVCodec *encoder = mp4 ? avcodec_find_encoder_by_name("libx264") : avcodec_find_encoder(AV_CODEC_ID_GIF);
        if (!encoder) {
            error = mp4 ? "this FFmpeg has no H.264 encoder (libx264)" : "this FFmpeg has no GIF encoder";
            return false;
        }
        int r = avformat_alloc_output_context2(&format, nullptr, mp4 ? "mp4" : "gif", tmpPath.c_str());
        if (r < 0 || !format) return fail(error, "cannot write " + std::string(mp4 ? "MP4" : "GIF"), r);
        stream = avformat_new_stream(format, nullptr);
        codec = avcodec_alloc_context3(encoder);
        frame = av_frame_alloc();
        packet = av_packet_alloc();
        if (!stream || !codec || !frame || !packet) return fail(error, "out of memory", AVERROR(ENOMEM));
        codec->width = settings.width;
        codec->height = settings.height;
        codec->time_base = AVRational { 1, settings.fps };
        codec->framerate = AVRational { settings.fps, 1 };
        codec->sample_aspect_ratio = AVRational { 1, 1 };
        codec->pix_fmt = mp4 ? AV_PIX_FMT_YUV420P : AV_PIX_FMT_PAL8;
        AVDictionary *options = nullptr;
        if (mp4) {
            codec->gop_size = settings.fps * 2;
            codec->max_b_frames = 2;
            // Slide players (PowerPoint, Keynote, browsers) want yuv420p, High profile, BT.709.
            codec->colorspace = AVCOL_SPC_BT709;
            codec->color_primaries = AVCOL_PRI_BT709;
            codec->color_trc = AVCOL_TRC_BT709;
            codec->color_range = AVCOL_RANGE_MPEG;
            av_dict_set(&options, "preset", "veryfast", 0);
            av_dict_set(&options, "tune", "animation", 0);
            av_dict_set(&options, "crf", "18", 0);
            av_dict_set(&options, "profile", "high", 0);
        }
        if (format->oformat->flags & AVFMT_GLOBALHEADER) codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
        r = avcodec_open2(codec, encoder, &options);
        av_dict_free(&options);
        if (r < 0) return fail(error, "opening the encoder failed", r);
        r = avcodec_parameters_from_context(stream->codecpar, codec);
        if (r < 0) return fail(error, "opening the encoder failed", r);
        stream->time_base = codec->time_base;
        stream->avg_frame_rate = codec->framerate;

        frame->width = settings.width;
        frame->height = settings.height;
        frame->format = mp4 ? AV_PIX_FMT_YUV420P : AV_PIX_FMT_BGRA;
        r = av_frame_get_buffer(frame, 0);
        if (r < 0) return fail(error, "out of memory", r);
        if (mp4) {
            sws = sws_getContext(settings.width, settings.height, AV_PIX_FMT_BGRA, settings.width, settings.height,
                                 AV_PIX_FMT_YUV420P, SWS_BICUBIC, nullptr, nullptr, nullptr);
            if (!sws) return fail(error, "cannot convert frames to yuv420p", AVERROR(EINVAL));
            const int *bt709 = sws_getCoefficients(SWS_CS_ITU709);
            sws_setColorspaceDetails(sws, bt709, 1, bt709, 0, 0, 1 << 16, 1 << 16);
        } else {
            filtered = av_frame_alloc();
            if (!filtered) return fail(error, "out of memory", AVERROR(ENOMEM));
            if (!openGifFilter(error)) return false;
        }

        if (mp4 && !settings.comment.empty()) av_dict_set(&format->metadata, "comment", settings.comment.c_str(), 0);
        r = avio_open(&format->pb, tmpPath.c_str(), AVIO_FLAG_WRITE);
        if (r < 0) return fail(error, "cannot write '" + tmpPath + "'", r);
        AVDictionary *muxOptions = nullptr;
        if (mp4) av_dict_set(&muxOptions, "movflags", "+faststart", 0);  // browsers play before the end arrives
        r = avformat_write_header(format, &muxOptions);
        av_dict_free(&muxOptions);
        if (r < 0) return fail(error, "writing '" + tmpPath + "' failed", r);
        headerWritten = true;
        return true;
    }

    // A GIF comment extension (GIF89a: 0x21 0xFE, sub-blocks of at most 255 bytes, a zero block).
    void writeGifComment()
    {
        const std::string &text = settings.comment;
        if (text.empty()) return;
        avio_w8(format->pb, 0x21);
        avio_w8(format->pb, 0xFE);
        for (std::size_t at = 0; at < text.size(); at += 255) {
            const std::size_t n = std::min<std::size_t>(255, text.size() - at);
            avio_w8(format->pb, int(n));
            avio_write(format->pb, reinterpret_cast<const unsigned char *>(text.data() + at), int(n));
        }
        avio_w8(format->pb, 0);
    }
};

VideoWriter::VideoWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
VideoWriter::~VideoWriter() = default;

int VideoWriter::framesWritten() const { return impl_->frames; }

std::unique_ptr<VideoWriter> VideoWriter::open(const std::string &path, const VideoSettings &settings,
                                               std::string &error)
{
    const bool mp4 = settings.format == VideoFormat::Mp4;
    if (settings.width < 16 || settings.height < 16 || settings.width > 8192 || settings.height > 8192
        || (mp4 && (settings.width % 2 || settings.height % 2))) {
        error = mp4 ? "MP4 size must be even numbers in [16, 8192]" : "GIF size must be in [16, 8192]";
        return nullptr;
    }
    if (settings.fps < 1 || settings.fps > 120) {
        error = "fps must be an integer in [1, 120]";
        return nullptr;
    }
    // Only FFmpeg's errors reach stderr (libx264 reports its settings and statistics otherwise);
    // the writer returns them as messages anyway.
    if (av_log_get_level() > AV_LOG_ERROR) av_log_set_level(AV_LOG_ERROR);
    // What finish() would rename over: not a folder or a device, not a file its owner made read-only.
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        error = "cannot write '" + path + "': it exists and is not a regular file";
        return nullptr;
    }
    if (std::string why = checkReplaceable(path); !why.empty()) {
        error = std::move(why);
        return nullptr;
    }
    auto impl = std::make_unique<Impl>();
    impl->settings = settings;
    impl->path = path;
    const auto slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? std::string(".") : path.substr(0, slash);
    const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
    std::string pattern = dir + "/." + base + ".partial-XXXXXX";
    const int fd = mkstemp(pattern.data());
    if (fd < 0) {
        error = "cannot create a file in '" + dir + "': " + std::strerror(errno);
        return nullptr;
    }
    // mkstemp makes the file private; a finished animation gets the usual permissions.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
    ::close(fd);
    impl->tmpPath = pattern;
    impl->partialSlot = rememberPartial(pattern);
    if (!impl->open(error)) return nullptr;  // ~Impl removes the temporary file
    return std::unique_ptr<VideoWriter>(new VideoWriter(std::move(impl)));
}

bool VideoWriter::addFrame(const std::uint8_t *bgra, int stride, std::string &error)
{
    Impl &d = *impl_;
    if (d.finished) {
        error = "the animation is already finished";
        return false;
    }
    int r = av_frame_make_writable(d.frame);
    if (r < 0) return d.fail(error, "out of memory", r);
    if (d.sws) {
        const std::uint8_t *src[1] = { bgra };
        const int srcStride[1] = { stride };
        sws_scale(d.sws, src, srcStride, 0, d.settings.height, d.frame->data, d.frame->linesize);
    } else {
        av_image_copy_plane(d.frame->data[0], d.frame->linesize[0], bgra, stride, d.settings.width * 4,
                            d.settings.height);
    }
    d.frame->pts = d.nextPts++;
    const bool ok = d.sws ? d.encode(d.frame, error) : d.filterAndEncode(d.frame, error);
    if (ok) ++d.frames;
    return ok;
}

bool VideoWriter::finish(std::string &error)
{
    Impl &d = *impl_;
    if (d.finished) return true;
    if (d.frames == 0) {
        error = "an animation needs at least one frame";
        return false;
    }
    if (d.graph && !d.filterAndEncode(nullptr, error)) return false;
    if (!d.encode(nullptr, error)) return false;
    if (d.settings.format == VideoFormat::Gif) d.writeGifComment();
    d.trailerTried = true;
    int r = av_write_trailer(d.format);
    if (r < 0) return d.fail(error, "writing '" + d.tmpPath + "' failed", r);
    avio_flush(d.format->pb);
    if (d.format->pb->error < 0) return d.fail(error, "writing '" + d.tmpPath + "' failed", d.format->pb->error);
    r = avio_closep(&d.format->pb);
    if (r < 0) return d.fail(error, "writing '" + d.tmpPath + "' failed", r);
    if (std::rename(d.tmpPath.c_str(), d.path.c_str()) != 0) {
        error = "cannot rename the finished animation to '" + d.path + "': " + std::strerror(errno);
        return false;
    }
    d.finished = true;
    forgetPartial(d.partialSlot);
    d.partialSlot = -1;
    return true;
}

bool videoFormatOf(const std::string &path, VideoFormat &format)
{
    const std::string ext = lowerExtension(path);
    if (ext == "mp4") format = VideoFormat::Mp4;
    else if (ext == "gif") format = VideoFormat::Gif;
    else return false;
    return true;
}

bool videoFormatAvailable(VideoFormat format, std::string &why)
{
    if (format == VideoFormat::Mp4) {
        if (!avcodec_find_encoder_by_name("libx264")) { why = "this FFmpeg has no libx264 (H.264) encoder"; return false; }
        if (!av_guess_format("mp4", nullptr, nullptr)) { why = "this FFmpeg has no MP4 muxer"; return false; }
        return true;
    }
    if (!avcodec_find_encoder(AV_CODEC_ID_GIF) || !avfilter_get_by_name("palettegen")
        || !avfilter_get_by_name("paletteuse")) {
        why = "this FFmpeg has no GIF encoder or palette filters";
        return false;
    }
    return true;
}

} // namespace fb
