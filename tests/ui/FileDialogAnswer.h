#pragma once

#include <QApplication>
#include <QFileDialog>
#include <QLineEdit>
#include <QTimer>

#include <memory>

/// Types `path` into the next file dialog (open or save) once it is up and accepts it, as a user would: for
/// actions that open a modal QFileDialog and wait. When no dialog comes within 10 s it gives up, and the test's
/// own checks then fail.
inline void answerFileDialog(const QString &path)
{
    auto *timer = new QTimer;
    timer->setInterval(50);
    auto attempts = std::make_shared<int>(0);
    QObject::connect(timer, &QTimer::timeout, timer, [timer, path, attempts] {
        if (auto *dialog = qobject_cast<QFileDialog *>(QApplication::activeModalWidget())) {
            if (auto *name = dialog->findChild<QLineEdit *>(QStringLiteral("fileNameEdit")))
                name->setText(path);                  // the file name box of Qt's own dialog
            static_cast<QDialog *>(dialog)->accept(); // QFileDialog::accept, as the Save or Open button
            timer->deleteLater();
        } else if (++*attempts >= 200) {
            timer->deleteLater();
        }
    });
    timer->start();
}
