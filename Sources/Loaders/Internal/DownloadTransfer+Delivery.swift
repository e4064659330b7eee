#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import WebImageCore

/// The end of a transfer: decryption, revalidation, one decode per group of requesters with
/// equal decode settings, and exactly one resume per requester.
extension DownloadTransfer {
    /// Ends every remaining requester with `error` and closes the transfer.
    func finishAll(with error: any Error) async {
        let (requesters, feed) = state.withLock { state -> ([DownloadRequester], ProgressiveFeed?) in
            (state.lifecycle.finish(), state.progressive)
        }
        environment.table.remove(self)
        await feed?.close()
        for requester in requesters { requester.resume(throwing: error) }
    }

    /// Turns the complete body into each requester's result.
    func process(_ data: Data, response: AcceptedResponse?) async {
        if let feed = state.withLock({ $0.progressive }) {
            await feed.close()
        }
        let body: Data
        do {
            body = try prepare(data, response: response)
        } catch {
            await finishAll(with: error)
            return
        }
        let statusCode = response?.statusCode
        let contentType = response?.mimeType
        while true {
            // Serve the oldest requester left, and every requester that shares its decode.
            guard let next = state.withLock({ $0.lifecycle.nextToServe() }) else { break }
            let result: Result<ImageLoaderResult, any Error>
            do {
                let image = try await next.decode.decodeLoadedData(body, on: .processing)
                result = .success(ImageLoaderResult(image: image, data: body, statusCode: statusCode, contentType: contentType))
            } catch {
                result = .failure(error)
            }
            let served = state.withLock { $0.lifecycle.takeServed(by: next) }
            for requester in served { requester.resume(with: result) }
        }
        environment.table.remove(self)
    }

    /// Ends a finished transfer on the calling thread (the libcurl event loop), without a task,
    /// when that is as quick as resuming continuations: no requester decodes
    /// (`avoidDecodeImage`), every one is an async caller, and there is no progressive decoder,
    /// decryptor or revalidation. Returns `false` (and does nothing) otherwise. Closes the
    /// transfer first, so that no requester that decodes can join it meanwhile.
    ///
    /// Why: the task hop from the event loop to the cooperative pool and back (to free the
    /// slot and start the next download) was the slot's turnover time for many small downloads.
    func finishWithoutDecoding(_ data: Data, response: AcceptedResponse?) -> Bool {
        guard settings.decryptor == nil, !settings.refreshesCache else { return false }
        let requesters = state.withLock { state -> [DownloadRequester]? in
            guard state.progressive == nil else { return nil }
            return state.lifecycle.finishIfNoneDecodes()
        }
        guard let requesters else { return false }
        let result: Result<ImageLoaderResult, any Error>
        do {
            let body = try prepare(data, response: response)
            result = .success(ImageLoaderResult(image: nil, data: body, statusCode: response?.statusCode, contentType: response?.mimeType))
        } catch {
            result = .failure(error)
        }
        environment.table.remove(self)
        for requester in requesters { requester.resume(with: result) }
        return true
    }

    /// Decrypts, checks emptiness, revalidates against and refreshes the URL cache.
    func prepare(_ data: Data, response: AcceptedResponse?) throws -> Data {
        var body = data
        if let decryptor = settings.decryptor {
            guard let decrypted = decryptor.decryptedData(data, response: response?.response) else {
                throw WebImageError(.badImageData, "The decryptor returned nil for \(data.count) bytes from \(url.absoluteString)", url: url, statusCode: response?.statusCode)
            }
            body = decrypted
        }
        guard !body.isEmpty else {
            throw WebImageError(.badImageData, "Image data is nil: \(url.absoluteString) returned an empty body", url: url, statusCode: response?.statusCode)
        }
        if settings.refreshesCache, let response = response?.response {
            if let cached = settings.cachedResponse, cached.data == data {
                throw WebImageError(.cacheNotModified, "Downloaded image of \(url.absoluteString) is not modified (same \(data.count) bytes as the cached response)", url: url, statusCode: response.statusCode)
            }
            let cacheControl = response.value(forHTTPHeaderField: "Cache-Control")?.lowercased() ?? ""
            if let store = environment.responses, !cacheControl.contains("no-store") {
                store.store(CachedURLResponse(response: response, data: data), for: url)
            }
        }
        return body
    }
}
