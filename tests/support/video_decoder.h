#pragma once
// Test support: decodes a whole MP4 or GIF with FFmpeg's libraries into RGB32 QImages, with the
// container's codec, size, duration and comment, to check what FullBand's animations wrote.
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
}

#include <QImage>
#include <QList>
#include <QString>

namespace fb::test {

struct DecodedVideo {
    QString error;           // empty when decoding worked
    QString codec;           // "h264", "gif"
    QString pixelFormat;     // the stream's, e.g. "yuv420p"
    QString comment;         // the container's "comment" tag (MP4)
    QSize size;
    double seconds = 0.0;    // from the first frame's start to the last frame's end
    QList<QImage> frames;
};

inline DecodedVideo decodeVideo(const QString &path)
{
    DecodedVideo out;
    AVFormatContext *format = nullptr;
    const QByteArray file = path.toLocal8Bit();
    if (avformat_open_input(&format, file.constData(), nullptr, nullptr) < 0) {
        out.error = QStringLiteral("cannot open ") + path;
        return out;
    }
    AVCodecContext *codec = nullptr;
    AVPacket *packet = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    SwsContext *sws = nullptr;
    std::int64_t firstPts = AV_NOPTS_VALUE, endPts = AV_NOPTS_VALUE;
    int streamIndex = -1;
    auto take = [&]() {
        while (avcodec_receive_frame(codec, frame) == 0) {
            QImage image(frame->width, frame->height, QImage::Format_RGB32);
            if (!sws) {
                sws = sws_getContext(frame->width, frame->height, AVPixelFormat(frame->format), frame->width,
                                     frame->height, AV_PIX_FMT_BGRA, SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT,
                                     nullptr, nullptr, nullptr);
                const int *coefficients = sws_getCoefficients(
                    frame->colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_ITU601);
                sws_setColorspaceDetails(sws, coefficients, frame->color_range == AVCOL_RANGE_JPEG,
                                         sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16);
            }
            std::uint8_t *dst[1] = { image.bits() };
            const int dstStride[1] = { int(image.bytesPerLine()) };
            sws_scale(sws, frame->data, frame->linesize, 0, frame->height, dst, dstStride);
            const std::int64_t pts = frame->best_effort_timestamp;
            if (firstPts == AV_NOPTS_VALUE) firstPts = pts;
            endPts = pts + frame->pkt_duration;
            out.frames.append(image);
            av_frame_unref(frame);
        }
    };
    if (avformat_find_stream_info(format, nullptr) < 0
        || (streamIndex = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0)) < 0) {
        out.error = QStringLiteral("no video stream in ") + path;
    } else {
        AVStream *stream = format->streams[streamIndex];
        const AVCodec *decoder = avcodec_find_decoder(stream->codecpar->codec_id);
        codec = avcodec_alloc_context3(decoder);
        avcodec_parameters_to_context(codec, stream->codecpar);
        out.codec = QString::fromLatin1(avcodec_get_name(stream->codecpar->codec_id));
        const char *pix = av_get_pix_fmt_name(AVPixelFormat(stream->codecpar->format));
        out.pixelFormat = pix ? QString::fromLatin1(pix) : QString();
        out.size = QSize(stream->codecpar->width, stream->codecpar->height);
        if (const AVDictionaryEntry *c = av_dict_get(format->metadata, "comment", nullptr, 0))
            out.comment = QString::fromUtf8(c->value);
        if (avcodec_open2(codec, decoder, nullptr) < 0) {
            out.error = QStringLiteral("cannot open the decoder");
        } else {
            while (av_read_frame(format, packet) >= 0) {
                if (packet->stream_index == streamIndex) {
                    avcodec_send_packet(codec, packet);
                    take();
                }
                av_packet_unref(packet);
            }
            avcodec_send_packet(codec, nullptr);
            take();
            if (firstPts != AV_NOPTS_VALUE) out.seconds = double(endPts - firstPts) * av_q2d(stream->time_base);
        }
    }
    sws_freeContext(sws);
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&codec);
    avformat_close_input(&format);
    return out;
}

// Mean and largest absolute difference per channel (0..255) of two RGB32 images of one size.
struct ImageDifference { double mean = 0.0; int max = 0; double exactFraction = 0.0; };
inline ImageDifference imageDifference(const QImage &a, const QImage &b)
{
    ImageDifference d;
    const QImage x = a.convertToFormat(QImage::Format_RGB32), y = b.convertToFormat(QImage::Format_RGB32);
    if (x.size() != y.size()) return { 255.0, 255, 0.0 };
    double sum = 0.0;
    qint64 exact = 0;
    for (int row = 0; row < x.height(); ++row) {
        const QRgb *p = reinterpret_cast<const QRgb *>(x.constScanLine(row));
        const QRgb *q = reinterpret_cast<const QRgb *>(y.constScanLine(row));
        for (int col = 0; col < x.width(); ++col) {
            const int dr = std::abs(qRed(p[col]) - qRed(q[col])), dg = std::abs(qGreen(p[col]) - qGreen(q[col])),
                      db = std::abs(qBlue(p[col]) - qBlue(q[col]));
            sum += dr + dg + db;
            d.max = std::max({ d.max, dr, dg, db });
            exact += (dr | dg | db) == 0;
        }
    }
    const double n = double(x.width()) * x.height();
    d.mean = sum / (3.0 * n);
    d.exactFraction = exact / n;
    return d;
}

} // namespace fb::test
