// A self-signed certificate for 127.0.0.1 and localhost, and its private key, for the TLS
// loopback server of these tests only. The key is public, in this repository: it protects
// nothing, and nothing but these tests may trust the certificate. Valid for 100 years, made with
//
//     openssl req -x509 -newkey rsa:2048 -nodes -days 36500 -subj /CN=localhost \
//         -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" -keyout key.pem -out cert.pem
#if canImport(Glibc)
import NIOSSL

enum TestCertificate {
    /// The certificate, PEM.
    static let certificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIDJzCCAg+gAwIBAgIUdDgS7BYO7DYzVg5CDkGQgi6zoCUwDQYJKoZIhvcNAQEL
        BQAwFDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyNjIxMDYwMVoYDzIxMjYx
        MTAyMjEwNjAxWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwggEiMA0GCSqGSIb3DQEB
        AQUAA4IBDwAwggEKAoIBAQC1UMELTNzKnRZ1ZqrMVwEsyvn4XcSb9+sEGg5zMIUA
        cYielybWwea05cMn+610Urk+LBj1jr6IIQvmPdtc+51rYOowJH+nKwGZGQ3Cinwc
        VuslpJuRYtsfo4M7GujgV7zhbc59sB2mrM80OZiunjsRFnGkKsLNcTdWHZU2LIYB
        +yymPy10hLiVLVBulkWwn3x0W+FCCS4sw+nTjJGjPUEaib0RlDPx4iW5TnktvPUP
        DHNcSTRDqyQs90AErQFbxUSf3gT+k8Ye57+M7KayX1rkbxAYJ+d5gfl5QANTgO/g
        LWHD5V3BSfK50jzVnQ7IsegtSy1nidifTPI54qcYTLF7AgMBAAGjbzBtMB0GA1Ud
        DgQWBBRxtS6YzHWODVibHZsUaiZMLAwK+zAfBgNVHSMEGDAWgBRxtS6YzHWODVib
        HZsUaiZMLAwK+zAPBgNVHRMBAf8EBTADAQH/MBoGA1UdEQQTMBGHBH8AAAGCCWxv
        Y2FsaG9zdDANBgkqhkiG9w0BAQsFAAOCAQEAk1JjzhvPgfJc4IsUiYl9HmYgEyBD
        zMi61kFeEHBRlLN2kP4+rpkm2Ey9zdEpiNYFzb6cIidVVPLVcyct5QxpL/YucAIE
        N9EzdNWZTWO2ihN3JXKcNxayJN/y0XcUYJCbp9ofcJ2M1+gOpLLF1G3qDZGGhGTf
        zrwr8b6MlU6kXzAGk/uUUuq+/bgKdbfBVci8hCvVRxYEeotAOybpqbMiOqum1BGu
        WHcEd8eUleuw8EIIN4zC6VZx3aWVMA2uWEMTY/LUO/jjGG6TpUeNbSl0YWOGzY92
        MARQaMdyLcV+XNIqMd4x7ogBXNEmgt2Fy7wGut1bXp6VOZ60ZBmFEDQ8gQ==
        -----END CERTIFICATE-----
        """

    /// Its private key, PEM: a test-only key, never to protect anything.
    static let privateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQC1UMELTNzKnRZ1
        ZqrMVwEsyvn4XcSb9+sEGg5zMIUAcYielybWwea05cMn+610Urk+LBj1jr6IIQvm
        Pdtc+51rYOowJH+nKwGZGQ3CinwcVuslpJuRYtsfo4M7GujgV7zhbc59sB2mrM80
        OZiunjsRFnGkKsLNcTdWHZU2LIYB+yymPy10hLiVLVBulkWwn3x0W+FCCS4sw+nT
        jJGjPUEaib0RlDPx4iW5TnktvPUPDHNcSTRDqyQs90AErQFbxUSf3gT+k8Ye57+M
        7KayX1rkbxAYJ+d5gfl5QANTgO/gLWHD5V3BSfK50jzVnQ7IsegtSy1nidifTPI5
        4qcYTLF7AgMBAAECggEAJjZiuPL2BW2d8hg1HuOnR71veTyp1wUk7rRfHz+2iCVl
        WacZdGFhMfbKbn7IS5+zkrrQd9Ahr6bnTxryRGJzBtJiCMtoa97Qc2eoUrvE9GQN
        It3SO43OCJj5a1d8hOt4zznJLwwS87Gv6Z3J4+NNJ4jHYoXwkEOwGeIaNFSl2Xyv
        BIB0G4v8ElfAnHxeRA9h9Od/wEEeqQ+NCzpGSI8fJgb42v8pqu7+EMopnq0S6H/p
        20MOxGqtNhr+iQsnyxtUr8GmkaMScEJsn4PuL+mP2XVtKSz146UfBzdQ+P8uXI14
        o7f0tePDwW6M7TxsHb11LYHdDiguXKxj+jZsVox9AQKBgQDqilmg2Hx1cii7wnwR
        i56bfalOdl0Sr2nXsQwJG2MgsJrnA2gjYR/z1IKlK1NLD2MFQJBO/ZY//3tYo0W1
        gkU6bZVkUPsLNPXT/TF6n920ORtnnR4lT4girS94bSeX2/ET+uwYUufSRL+9+V2n
        Xk75OwpkBvYoMGeI+4NYx+0QoQKBgQDF57aIwRmLJ/0Ju4FHfJrAtUfNS558bBxZ
        QZQm6XdhMIKwW0aYDTmKDGHD+t/1qjO6j292AHBZFFjmC5gQWUHEcvaWYtWrp1pK
        bDVlFnDAfNF/IyUPCMe+/hCKARwxBlCFg92cEJbiArVCg/94uVCRLiy4xRXw1/kx
        qmvvsf+gmwKBgQC0etfzlQNY4QsFSOhuG/FmF7G0BhMi8MbSypPHYkLKgfwBLrbx
        Gqka2XnbHdbPmLyK6x7hGfSHtNI26BUZUnBxQKhH9KTp/8v3YAu2H9Tb/WHgPqBW
        97d7b6dq1Rw1mHMP+/O31/w56ttdlcmCpGjDErKxPEYpsO3LFDgDln0PYQKBgQC/
        VMWkcQvA/WglgKH7+vuiU6CXWgRfRiYiJMSW2iAQVlYDKjuVxTNbw5zBXEopt+NK
        +mFINCRp+sH3pj3dkG2E/6BmxCbPTXx9dyAoGwnnDsV7pP6vCk4S2I4k3e3jd7dh
        XZtixqcY2oVjSToz/PVnZrzV5bTQo/zHh3vSwMPjAQKBgGGaGDqyV7NZNafNBTeC
        vCL+0LM3op4QIKcC4GIdULzN8INWpnTWTsRRqrBrJlqUisKA4pT/N4hzY8w6LIdS
        HgGsOUV+dv6sOjlGbkwMbh9EIr21FmMqiOveh4oZEfhPl5wzYORyn9YF5Mpjdwws
        Fs74QxWNUKkft6/OMNQ328D5
        -----END PRIVATE KEY-----
        """

    /// The certificate, for a server's chain or a client's trust roots.
    static func certificate() throws -> NIOSSLCertificate {
        try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem)
    }

    /// The private key, for the server.
    static func privateKey() throws -> NIOSSLPrivateKey {
        try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
    }
}
#endif
